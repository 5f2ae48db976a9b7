package worker

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// netProbe is a command agent that tries the network as an attacker
// would and writes down in probe.txt what each try got: yes, refused (bh's
// proxy said no) or no (nothing answered). %[1]d is bh serve's port,
// %[2]s its token, %[3]s a git server's URL the test may list, %[4]s one
// it never lists, %[5]s this machine's own address (bh serve listens on
// all of them).
const netProbe = `r=probe.txt
try() { name=$1; shift; out=$("$@" 2>&1) && out=yes
  case "$out" in yes) ;; *"refused by the sandbox"*|*"response 403"*|*"error: 403"*) out=refused;; *) out=no;; esac
  echo "$name: $out" >>$r; }
c="curl -fsS --max-time 30"
try "serve direct" bash -c 'exec 3<>/dev/tcp/127.0.0.1/%[1]d'
try "serve via proxy" $c -X POST -H "Authorization: Bearer %[2]s" -d answer=yes http://127.0.0.1:%[1]d/answer
try "serve tunnelled" $c -p -X POST -H "Authorization: Bearer %[2]s" -d answer=yes http://127.0.0.1:%[1]d/answer
try "serve by name" $c -X POST -H "Authorization: Bearer %[2]s" -d answer=yes http://localhost:%[1]d/answer
try "serve on own address" $c -X POST -H "Authorization: Bearer %[2]s" -d answer=yes http://%[5]s:%[1]d/answer
try "private" $c http://10.255.255.1/
try "metadata" $c http://169.254.169.254/latest/meta-data/
try "api via proxy" $c "$ANTHROPIC_BASE_URL/v1/messages"
try "api direct" $c --noproxy '*' "$ANTHROPIC_BASE_URL/v1/messages"
try "git listed" git ls-remote %[3]s
try "curl listed" $c %[3]s/HEAD
try "git unlisted" git ls-remote %[4]s
echo written >work.txt
echo '{"status":"completed","summary":"probed"}'
`

// TestSandboxNetwork: an agent reaches its model API, and what
// sandbox.network lists, through bh's proxy; never bh serve on the host's
// loopback (directly or through the proxy, with its token), a private
// address or the cloud's metadata address. network: false cuts all.
func TestSandboxNetwork(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	var answered, apiHits atomic.Int32
	const token = "s3cret-web-token"
	serve := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer "+token {
			answered.Add(1)
		}
		http.Redirect(w, r, "/", http.StatusSeeOther)
	}))
	serve.Listener.Close()
	serve.Listener = must(net.Listen("tcp", ":0")) // every address of this machine, as bh serve --addr :8080
	serve.Start()
	defer serve.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		apiHits.Add(1)
		fmt.Fprint(w, `{"type":"message"}`)
	}))
	defer api.Close()
	gits := map[string]*atomic.Int32{}
	gitServer := func() string {
		dir := t.TempDir()
		gitT(t, dir, "clone", "-q", "--bare", s.Root, "repo.git")
		gitT(t, filepath.Join(dir, "repo.git"), "update-server-info") // git's dumb HTTP: files
		var hits atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			http.FileServer(http.Dir(dir)).ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		gits[srv.URL] = &hits
		return srv.URL + "/repo.git"
	}
	listed, unlisted := gitServer(), gitServer()
	hostOf := func(u string) string { return strings.Split(strings.TrimPrefix(u, "http://"), "/")[0] }
	script := fmt.Sprintf(netProbe, serve.Listener.Addr().(*net.TCPAddr).Port, token, listed, unlisted, ownAddress(t))
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}}
	opt := Options{Env: []string{"HOME=" + t.TempDir(), "ANTHROPIC_BASE_URL=" + api.URL}}

	for _, tt := range []struct {
		name    string
		network config.Network
		want    string // the lines of probe.txt
	}{
		{"internet", config.Network{}, "serve direct: no\nserve via proxy: refused\nserve tunnelled: refused\nserve by name: refused\nserve on own address: refused\n" +
			"private: refused\nmetadata: refused\napi via proxy: yes\napi direct: yes\n" +
			"git listed: refused\ncurl listed: refused\ngit unlisted: refused\n"},
		{"listed", config.Network{Hosts: []string{"github.com", "*.npmjs.org", hostOf(listed)}},
			"serve direct: no\nserve via proxy: refused\nserve tunnelled: refused\nserve by name: refused\nserve on own address: refused\n" +
				"private: refused\nmetadata: refused\napi via proxy: yes\napi direct: yes\n" +
				"git listed: yes\ncurl listed: yes\ngit unlisted: refused\n"},
		{"off", config.Network{Off: true}, "serve direct: no\nserve via proxy: no\nserve tunnelled: no\nserve by name: no\nserve on own address: no\n" +
			"private: no\nmetadata: no\napi via proxy: no\napi direct: no\n" +
			"git listed: no\ncurl listed: no\ngit unlisted: no\n"},
	} {
		if testing.Short() && tt.name == "listed" {
			continue // the developers' loop: the default and off
		}
		t.Run(tt.name, func(t *testing.T) {
			answered.Store(0)
			apiHits.Store(0)
			for _, h := range gits {
				h.Store(0)
			}
			s.Config.Sandbox = config.SandboxConfig{Network: tt.network}
			tk := addTask(t, s, "probe the network "+tt.name)
			runWith(t, s, opt)
			got := getTask(t, s, tk.ID)
			if got.State != task.Closed {
				t.Fatalf("the task is %s: %s %v", got.State, got.Summary, got.Issues)
			}
			if probe := readFile(t, s.Root, "probe.txt"); probe != tt.want {
				t.Errorf("probe.txt:\n%s\nwant:\n%s", probe, tt.want)
			}
			if readFile(t, s.Root, "work.txt") != "written\n" {
				t.Errorf("the agent's own file did not land")
			}
			if n := answered.Load(); n != 0 {
				t.Errorf("bh serve took %d answers from the agent", n)
			}
			if n := gits[strings.TrimSuffix(unlisted, "/repo.git")].Load(); n != 0 {
				t.Errorf("the unlisted git server saw %d requests", n)
			}
			if wantAPI := !tt.network.Off; (apiHits.Load() == 2) != wantAPI {
				t.Errorf("the model API saw %d requests", apiHits.Load())
			}
			if e, ok := lastEvent(got, task.EventRunStarted); !ok || e.Sandbox != jail.Sandboxed {
				t.Errorf("the run records sandbox %q, want %q", e.Sandbox, jail.Sandboxed)
			}
			os.Remove(filepath.Join(s.Root, "probe.txt"))
			gitT(t, s.Root, "rm", "-q", "probe.txt", "work.txt")
			gitT(t, s.Root, "commit", "-q", "-m", "next probe")
		})
	}
}

// ownAddress is an address of this machine's other than loopback, where
// there is one.
func ownAddress(t *testing.T) string {
	as, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return "127.0.0.1"
}
