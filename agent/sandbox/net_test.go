package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/sandbox/egress"
)

// TestEgress: inside the sandbox, the model API on the host's loopback is
// reached through the proxy and directly (the bridge's forward), while
// another loopback server and a private address are refused, unless
// the allow-list names the server.
func TestEgress(t *testing.T) {
	st := Detect()
	if st.Bwrap == "" {
		t.Skip(st.Why)
	}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "api") }))
	defer api.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "other") }))
	defer other.Close()
	apiHost, otherHost := strings.TrimPrefix(api.URL, "http://"), strings.TrimPrefix(other.URL, "http://")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// refused: the proxy said no (403); no: nothing answered.
	script := `try() { name=$1; shift; out=$(curl -sS --max-time 20 "$@" 2>&1)
  case "$out" in *"refused by the sandbox"*|*"response 403"*) out=refused;; *curl:*) out=no;; esac; echo "$name: $out"; }
try "api via proxy" http://` + apiHost + `/
try "api direct" --noproxy '*' http://` + apiHost + `/
try "other via proxy" http://` + otherHost + `/
try "other tunnelled" -p http://` + otherHost + `/
try "other direct" --noproxy '*' http://` + otherHost + `/
try "private" http://10.255.255.1/
try "metadata" http://169.254.169.254/
`
	for _, tt := range []struct {
		name  string
		hosts []string
		want  string
	}{
		{"internet", nil, "api via proxy: api\napi direct: api\nother via proxy: refused\nother tunnelled: refused\nother direct: no\n" +
			"private: refused\nmetadata: refused\n"},
		{"listed", []string{"github.com", otherHost}, "api via proxy: api\napi direct: api\nother via proxy: other\nother tunnelled: other\n" +
			"other direct: no\nprivate: refused\nmetadata: refused\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := Bwrap{Path: st.Bwrap, Policy: Policy{Readable: []string{filepath.Dir(self)}, Env: DefaultEnv,
				Egress: &Egress{Bridge: self, Policy: egress.Policy{Hosts: tt.hosts, API: []string{apiHost}}}}}
			var out bytes.Buffer
			res, err := proc.Run(context.Background(), proc.Cmd{Argv: []string{"sh", "-c", script}, Stdout: &out, Stderr: &out, Launcher: b})
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("exit %d, %v: %s", res.ExitCode, err, out.String())
			}
			if out.String() != tt.want {
				t.Errorf("inside the sandbox:\n%s\nwant:\n%s", out.String(), tt.want)
			}
		})
	}
}
