package gocache

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestServe: a get finds the run's own entry, else the user's; a put goes
// into the run's own folder alone; an unknown action is a miss.
func TestServe(t *testing.T) {
	user, own := t.TempDir(), t.TempDir()
	if _, err := put(user, []byte{1, 1}, []byte{9, 9}, []byte("the user's")); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal([]byte("the run's"))
	in := `{"ID":1,"Command":"get","ActionID":"AQE="}
{"ID":2,"Command":"put","ActionID":"AgI=","OutputID":"CAg=","BodySize":9}
` + string(body) + `
{"ID":3,"Command":"get","ActionID":"AgI="}
{"ID":4,"Command":"get","ActionID":"AwM="}
{"ID":5,"Command":"close"}
`
	var out bytes.Buffer
	if err := Serve(strings.NewReader(in), &out, user, own); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&out)
	var res []response
	for dec.More() {
		var r response
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		res = append(res, r)
	}
	if len(res) != 6 || len(res[0].KnownCommands) != 3 {
		t.Fatalf("responses %+v", res)
	}
	read := func(p string) string { b, _ := os.ReadFile(p); return string(b) }
	if r := res[1]; r.Miss || read(r.DiskPath) != "the user's" || !strings.HasPrefix(r.DiskPath, user) {
		t.Errorf("get of the user's: %+v", r)
	}
	if r := res[2]; r.Err != "" || !strings.HasPrefix(r.DiskPath, own) || read(r.DiskPath) != "the run's" {
		t.Errorf("put: %+v", r)
	}
	if r := res[3]; r.Miss || r.Size != 9 || !strings.HasPrefix(r.DiskPath, own) {
		t.Errorf("get of the run's own: %+v", r)
	}
	if r := res[4]; !r.Miss {
		t.Errorf("get of nothing: %+v", r)
	}
	if _, _, _, ok := lookup(user, []byte{2, 2}); ok {
		t.Errorf("the run's put reached the user's cache")
	}
}
