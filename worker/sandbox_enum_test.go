package worker

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/jail"
)

// enumReport is what the enumerating agent found from inside its sandbox.
// Paths on the sandbox's own /tmp (its private tmpfs, not a folder bound
// in) are reported as "/tmp".
type enumReport struct {
	Read, Write, Connect, Procs, Env []string
	TTY                              bool   // /dev/tty opened: a controlling terminal
	Worktree, GitDir                 string // where it ran, and its .git file's git dir
}

// The enumerating agent's file, in its worktree: the report lands.
const enumFile = "enumerated.json"

// helperEnumerate is a command agent (this test binary, BH_WORKER_HELPER=
// enumerate) that walks the whole filesystem it sees and tries what it
// can do: every file outside the system folders it can open for reading,
// every folder it can create a file in and every file it can open for
// writing (the system folders too; /proc and /sys are the kernel's and
// not walked), every unix socket it can connect to (found by the walk,
// and the abstract ones /proc/net/unix lists), the processes it sees, the
// controlling terminal and its environment.
func helperEnumerate() int {
	r := enumReport{}
	wd, _ := os.Getwd()
	r.Worktree = wd
	if b, err := os.ReadFile(".git"); err == nil {
		r.GitDir = strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
	}
	var tmp syscall.Stat_t
	syscall.Stat("/tmp", &tmp)
	seen := map[string]bool{}
	add := func(list *[]string, p string) {
		var st syscall.Stat_t
		if syscall.Lstat(p, &st) == nil && st.Dev == tmp.Dev {
			p = "/tmp" // the sandbox's own
		}
		if k := fmt.Sprintf("%p %s", list, p); !seen[k] {
			seen[k] = true
			*list = append(*list, p)
		}
	}
	system := func(p string) bool {
		return slices.ContainsFunc(append(slices.Clone(sandbox.System), "/proc", "/dev"), func(s string) bool {
			return p == s || strings.HasPrefix(p, s+"/")
		})
	}
	filepath.WalkDir("/", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p == "/proc" || p == "/sys" {
			return fs.SkipDir
		}
		t := d.Type()
		if fi, err := os.Lstat(p); err == nil {
			t = fi.Mode().Type() // a file bound in shows in its folder as the mount point bwrap made
		}
		switch {
		case t.IsDir():
			if f, err := os.OpenFile(filepath.Join(p, ".bh-enum-probe"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
				f.Close()
				os.Remove(f.Name())
				add(&r.Write, p)
			}
		case t&fs.ModeSymlink != 0:
		case t&fs.ModeSocket != 0:
			if c, err := net.Dial("unix", p); err == nil {
				c.Close()
				add(&r.Connect, p)
			}
		default:
			if !system(p) && p != filepath.Join(wd, enumFile) {
				if f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0); err == nil {
					f.Close()
					add(&r.Read, p)
				}
			}
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0); err == nil {
				f.Close()
				add(&r.Write, p)
			}
		}
		return nil
	})
	if f, err := os.Create("/sys/.bh-enum-probe"); err == nil {
		f.Close()
		add(&r.Write, "/sys")
	}
	if f, err := os.Open("/proc/net/unix"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if fs := strings.Fields(sc.Text()); len(fs) >= 8 && strings.HasPrefix(fs[7], "@") {
				if c, err := net.Dial("unix", fs[7]); err == nil {
					c.Close()
					add(&r.Connect, fs[7])
				}
			}
		}
		f.Close()
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/comm")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil {
			add(&r.Procs, strings.TrimSpace(string(b)))
		}
	}
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		f.Close()
		r.TTY = true
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		r.Env = append(r.Env, name)
	}
	b, _ := json.MarshalIndent(r, "", " ")
	if err := os.WriteFile(enumFile, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(`{"status":"completed","summary":"enumerated"}`)
	return 0
}

// threatsList is the allow-list under heading in THREATS.md: every
// backquoted name in the first column of its table.
func threatsList(t *testing.T, doc, heading string) []string {
	t.Helper()
	i := strings.Index(doc, "\n### "+heading+"\n")
	if i < 0 {
		t.Fatalf("THREATS.md has no %q", heading)
	}
	var out []string
	rows := 0
	for _, line := range strings.Split(doc[i+len(heading)+6:], "\n") {
		if strings.HasPrefix(line, "### ") || strings.HasPrefix(line, "## ") {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) < 3 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		if rows++; rows == 1 {
			continue // the header
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			out = append(out, m[1])
		}
	}
	if len(out) == 0 {
		t.Fatalf("THREATS.md's %q lists nothing", heading)
	}
	return out
}

// allows reports whether allow (paths, with * in a name) holds p: p
// itself or under it. "/tmp" holds only the sandbox's own /tmp.
func allows(allow []string, p string) bool {
	for _, a := range allow {
		switch {
		case a == "/tmp" || p == "/tmp":
			if a == p {
				return true
			}
		case strings.Contains(a, "*"):
			if ok, _ := path.Match(a, p); ok {
				return true
			}
		case p == a || strings.HasPrefix(p, a+"/"):
			return true
		}
	}
	return false
}

// TestSandboxEnumeration: what a real task's run can read, write, connect
// to, signal and see in its environment, listed from inside its sandbox,
// is what THREATS.md's allow-lists name, and nothing more; it has no
// controlling terminal; and the canaries (a random dotfile in the home, a
// random folder beside the repository, a random name in the user's
// ~/.cache) are nowhere in the lists.
func TestSandboxEnumeration(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	doc := readFile(t, "../agent/sandbox", "THREATS.md")
	s := newStore(t)
	home := t.TempDir()
	canary := "canary-" + filepath.Base(t.TempDir())
	for _, f := range []string{".ssh/id_ed25519", ".aws/credentials", ".pgpass", ".vault-token", ".config/hub/config",
		".bash_history", ".cache/huggingface/token", ".cargo/credentials.toml", "." + canary, ".cache/" + canary + "/token",
		".cargo/bin/cargo-x", "go/bin/tool", "go/pkg/mod/cache/download/example.com/m/@v/list", ".cache/go-build/00/x-d",
		".local/bin/tool", ".local/share/keyrings/login.keyring"} {
		writeFile(t, home, f, "secret "+f+"\n")
	}
	beside := filepath.Join(filepath.Dir(s.Root), canary)
	writeFile(t, beside, "notes.txt", "secret\n")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	goBin := filepath.Dir(must(exec.LookPath("go")))
	pathEnv := strings.Join([]string{goBin, filepath.Join(home, "go/bin"), filepath.Join(home, ".cargo/bin"),
		filepath.Join(home, ".local/bin"), "/usr/bin", "/bin"}, string(filepath.ListSeparator))
	env := []string{"HOME=" + home, "PATH=" + pathEnv, "GOCACHE=", "GOMODCACHE=", "GOPATH=", "SECRET_TOKEN=hunter2",
		"SSH_AUTH_SOCK=/run/ssh.sock", "TMPDIR=" + t.TempDir(), "BH_WORKER_HELPER=enumerate"}
	s.Config.Sandbox = config.SandboxConfig{TmpSize: "64MiB"}
	cfg := config.AgentConfig{Kind: "command", Command: []string{self}}
	s.Config.Agent = cfg
	tk := addTask(t, s, "enumerate")
	runWith(t, s, Options{Env: env})
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("the task is %s: %s %v", got.State, got.Summary, got.Issues)
	}
	var r enumReport
	if err := json.Unmarshal([]byte(readFile(t, s.Root, enumFile)), &r); err != nil {
		t.Fatal(err)
	}

	getenv := func(name string) string {
		for _, kv := range slices.Backward(env) {
			if k, v, _ := strings.Cut(kv, "="); k == name {
				return v
			}
		}
		return os.Getenv(name)
	}
	commonDir := real(t, filepath.Join(s.Root, ".git"))
	runCaches := filepath.Join(jail.RunHomesOf(s, commonDir), tk.ID, "cache")
	places := map[string][]string{
		"<worktree>": {r.Worktree}, "<worktree git dir>": {r.GitDir}, "<git common dir>": {commonDir},
		"<store>": {s.Dir}, "<outbox>": {jail.OutboxDir(s, commonDir, tk.ID)}, "<agent state>": nil,
		"<run caches>": {runCaches}, "<toolchains>": jail.Toolchains(getenv),
		"<agent program>": jail.ProgramDirs(cfg, jail.MCPCommand()), "<user caches>": jail.UserCaches(getenv),
		"<sandbox.readable>": s.Config.Sandbox.Readable, "<sandbox.writable>": s.Config.Sandbox.Writable,
		"<sandbox.allowEnv>": s.Config.Sandbox.AllowEnv,
	}
	resolve := func(heading string) []string {
		var out []string
		for _, e := range threatsList(t, doc, heading) {
			switch ps, ok := places[e]; {
			case ok:
				for _, p := range ps {
					out = append(out, p, real(t, p))
				}
			case strings.HasPrefix(e, "<"):
				t.Fatalf("THREATS.md's %q names %s, which this test does not know", heading, e)
			default:
				out = append(out, sandbox.Expand(e, home, "/"))
			}
		}
		return out
	}
	for _, l := range []struct {
		heading string
		found   []string
	}{{"May read", r.Read}, {"May write", r.Write}, {"May connect to", r.Connect}} {
		allow := resolve(l.heading)
		for _, p := range l.found {
			if strings.Contains(p, canary) {
				t.Errorf("%s: the canary %s", l.heading, p)
			} else if !allows(allow, p) {
				t.Errorf("%s: %s, which THREATS.md does not name", l.heading, p)
			}
		}
	}
	t.Logf("readable %d, writable %d, sockets %q, processes %q", len(r.Read), len(r.Write), r.Connect, r.Procs)
	if len(r.Read) < 3 {
		t.Errorf("the walk found next to nothing to read: %q", r.Read)
	}
	comms := map[string]bool{}
	for _, e := range threatsList(t, doc, "May signal") {
		if e == "<agent program>" {
			comms[trimComm(filepath.Base(self))] = true
		} else {
			comms[e] = true
		}
	}
	for _, p := range r.Procs {
		if !comms[p] {
			t.Errorf("May signal: %s, which THREATS.md does not name", p)
		}
	}
	if tty := threatsList(t, doc, "Terminal"); !slices.Equal(tty, []string{"none"}) || r.TTY {
		t.Errorf("a controlling terminal: %v; THREATS.md says %q", r.TTY, tty)
	}
	allowEnv := append(threatsList(t, doc, "Environment"), s.Config.Sandbox.AllowEnv...)
	for _, name := range r.Env {
		if !sandbox.Allowed(name, allowEnv) {
			t.Errorf("Environment: %s, which THREATS.md does not name", name)
		}
	}
	for _, name := range []string{"SECRET_TOKEN", "SSH_AUTH_SOCK"} {
		if slices.Contains(r.Env, name) {
			t.Errorf("the run sees %s", name)
		}
	}
}

// TestDefaultEnvIsInThreats: every variable the sandbox lets through is
// on THREATS.md's list.
func TestDefaultEnvIsInThreats(t *testing.T) {
	allow := threatsList(t, readFile(t, "../agent/sandbox", "THREATS.md"), "Environment")
	for _, name := range sandbox.DefaultEnv {
		if !slices.Contains(allow, name) {
			t.Errorf("sandbox.DefaultEnv lets %s through; THREATS.md does not name it", name)
		}
	}
}

// trimComm is name as /proc/<pid>/comm shows it.
func trimComm(name string) string {
	if len(name) > 15 {
		return name[:15]
	}
	return name
}

func real(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if errors.Is(err, fs.ErrNotExist) {
		return p
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}
