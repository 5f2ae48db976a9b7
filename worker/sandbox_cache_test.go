package worker

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// cacheWriter is a command agent that builds the repository (its module
// cache filled from the user's download cache, with no network), then
// writes a marker into every folder of every cache it can find, its own
// and the user's, and appends an init() to every Go file there.
const cacheWriter = `go build -o /tmp/app . >build.txt 2>&1 && echo built >>build.txt
test -d "$GOMODCACHE/example.com/canary@v1.0.0" && echo filled >>build.txt
for d in "$GOMODCACHE" "$GOCACHE" "$npm_config_cache" "$PIP_CACHE_DIR" "$CARGO_HOME" "$XDG_CACHE_HOME" \
	"$HOME/go" "$HOME/.cache" "$HOME/.npm" "$HOME/.cargo"; do
	find "$d" -type d 2>/dev/null | while read -r x; do chmod u+w "$x" 2>/dev/null; echo pwned >"$x/bh-marker" 2>/dev/null; done
	find "$d" -type f -name '*.go' 2>/dev/null | while read -r f; do
		chmod u+w "$f" 2>/dev/null; echo 'func init() { panic("pwned") }' >>"$f" 2>/dev/null; done
done
find / -name bh-marker -not -path '/proc/*' 2>/dev/null | grep -v "^$GOMODCACHE\|^$GOCACHE\|^$npm_config_cache\|^$PIP_CACHE_DIR\|^$CARGO_HOME\|^$XDG_CACHE_HOME\|^$GOTMPDIR" >outside.txt
echo '{"status":"completed","summary":"wrote"}'
`

// cacheReader is the next task's agent: it looks for the first one's
// markers everywhere it can see, and builds again.
const cacheReader = `find / -name bh-marker -not -path '/proc/*' >found.txt 2>/dev/null
go build -o /tmp/app . >build.txt 2>&1 && echo built >>build.txt
echo '{"status":"completed","summary":"read"}'
`

// TestSandboxCachesAreTheRunsOwn: an agent that writes into every cache
// it finds leaves the user's caches byte for byte as they were (go mod
// verify passes), its build fills its own module cache from the user's
// without a network, and the next task sees none of its writes.
func TestSandboxCachesAreTheRunsOwn(t *testing.T) {
	if testing.Short() {
		t.Skip("two cold Go builds in the sandbox")
	}
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	home := t.TempDir()
	for _, f := range []string{".cache/go-build/00/x-d", ".npm/_cacache/index", ".cache/pip/http/x", ".cargo/registry/index/x"} {
		writeFile(t, home, f, "the user's "+f+"\n")
	}
	modCache := filepath.Join(home, "go", "pkg", "mod")
	proxy := moduleProxy(t, "example.com/canary", "v1.0.0", map[string]string{
		"go.mod": "module example.com/canary\n\ngo 1.21\n", "canary.go": "package canary\n\nfunc Hello() string { return \"hi\" }\n"})
	goEnv := append(os.Environ(), "GOMODCACHE="+modCache, "GOPROXY=file://"+proxy, "GOSUMDB=off", "GOFLAGS=-modcacherw")
	writeFile(t, s.Root, "go.mod", "module probe\n\ngo 1.21\n\nrequire example.com/canary v1.0.0\n")
	writeFile(t, s.Root, "main.go", "package main\n\nimport \"example.com/canary\"\n\nfunc main() { println(canary.Hello()) }\n")
	goCmd(t, s.Root, goEnv, "mod", "download", "example.com/canary") // the user's cache holds the module
	goCmd(t, s.Root, goEnv, "mod", "tidy")
	gitT(t, s.Root, "add", "go.mod", "go.sum", "main.go")
	gitT(t, s.Root, "commit", "-q", "-m", "a Go module with a dependency")
	before := treeHash(t, home)

	s.Config.Sandbox = config.SandboxConfig{Network: config.Network{Off: true}}
	opt := Options{Env: []string{"HOME=" + home, "GOMODCACHE=" + modCache, "GOCACHE=" + filepath.Join(home, ".cache/go-build"),
		"GOPATH=" + filepath.Join(home, "go"), "GOPROXY=off", "GOFLAGS=", "GOSUMDB=off"}}
	run := func(script string) {
		t.Helper()
		s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}}
		tk := addTask(t, s, "caches")
		runWith(t, s, opt)
		if got := getTask(t, s, tk.ID); got.State != task.Closed {
			t.Fatalf("the task is %s: %s %v", got.State, got.Summary, got.Issues)
		}
	}
	run(cacheWriter)
	if got := readFile(t, s.Root, "build.txt"); !strings.HasSuffix(got, "built\nfilled\n") { // after go: downloading
		t.Errorf("the first build: %q", got)
	}
	if got := readFile(t, s.Root, "outside.txt"); got != "" {
		t.Errorf("the agent wrote outside its own caches:\n%s", got)
	}
	if after := treeHash(t, home); after != before {
		t.Errorf("the user's caches changed")
	}
	if out := goCmd(t, s.Root, append(goEnv, "GOPROXY=off"), "mod", "verify"); !strings.Contains(out, "all modules verified") {
		t.Errorf("go mod verify: %s", out)
	}
	run(cacheReader)
	if got := readFile(t, s.Root, "found.txt"); got != "" {
		t.Errorf("the next task sees the first one's writes:\n%s", got)
	}
	if got := readFile(t, s.Root, "build.txt"); !strings.HasSuffix(got, "built\n") {
		t.Errorf("the second build: %q", got)
	}
}

// moduleProxy is a GOPROXY folder (file://) serving one module version.
func moduleProxy(t *testing.T, mod, version string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	v := filepath.Join(dir, mod, "@v")
	writeFile(t, v, "list", version+"\n")
	writeFile(t, v, version+".info", `{"Version":"`+version+`"}`)
	writeFile(t, v, version+".mod", files["go.mod"])
	f, err := os.Create(filepath.Join(v, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for name, body := range files {
		w, err := z.Create(mod + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, body)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

func goCmd(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// treeHash is a digest of everything under dir: names, modes, contents.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		io.WriteString(h, p+"\x00"+fi.Mode().String()+"\x00")
		if fi.Mode().IsRegular() {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			io.Copy(h, f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
