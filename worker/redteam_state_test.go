package worker

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/landing"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// The red team against bh's own state (issue 27, item 12 and the secrets
// of item 3): a hostile agent must find nothing of bh's it can write but
// its outbox, nothing bh writes that it can redirect, no lock it can jam,
// no task write it can swap, and none of bh's secrets.

// runFolderNames are the names bh writes in a task's run folder.
var runFolderNames = []string{"journal.json", "journal.json.tmp", "setup.log", "setup.log.bh-tmp", "setup.done"}

// stateProbe is a command agent that tries to write each of bh's folders
// and to redirect each name bh writes in its run folder to a file of the
// user's (~/target-<name>), and to read bh's secrets; it writes down in
// probe.txt what worked, and completes.
const stateProbe = `r=probe.txt
try() { name=$1; shift; if "$@" >/dev/null 2>&1; then echo "$name: yes" >>$r; else echo "$name: no" >>$r; fi; }
bh=$BH_ROOT/.bh
local=$BH_ROOT/.git/bh
run=$local/runs/$BH_TASK_ID
try "write .bh/tmp" sh -c 'echo x >"$1/tmp/pwned"' - "$bh"
try "write .bh/locks" sh -c 'rm -f "$1/locks/land.lock" && mkdir "$1/locks/land.lock"' - "$local"
try "write .bh/cache" sh -c 'echo x >"$1/cache/pwned"' - "$local"
try "write run folder" sh -c 'mkdir -p "$1" && echo x >"$1/pwned"' - "$run"
for n in %[3]s; do try "link $n" ln -sfn "$HOME/target-$n" "$run/$n"; done
try "read web.json" cat "$XDG_CONFIG_HOME/bh/web.json"
try "read repos.json" cat "$XDG_CONFIG_HOME/bh/repos.json"
try "read bh's config" cat %[1]s/probe
try "read bh's state" cat %[2]s/probe
try "write outbox" sh -c 'echo x >"$BH_OUTBOX/note"'
echo written >work.txt
echo '{"status":"completed","summary":"probed"}'
`

func TestRedTeamStateIsNotTheAgents(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	home := t.TempDir()
	cfgDir := filepath.Join(home, ".config")
	writeFile(t, cfgDir, "bh/web.json", `{"token":"secret-token","linkKey":"secret-link-key"}`)
	writeFile(t, cfgDir, "bh/repos.json", `{"repos":["/somewhere"]}`)
	// The worker's own config and state dirs (the test process's): a probe
	// file each, harmless to the other tests.
	for _, d := range []string{config.UserConfigDir(), jail.StateDir()} {
		writeFile(t, d, "probe", "bh's\n")
	}
	targets := append([]string{}, runFolderNames...)
	for _, n := range targets {
		writeFile(t, home, "target-"+n, "the user's own\n")
	}
	script := fmt.Sprintf(stateProbe, config.UserConfigDir(), jail.StateDir(), strings.Join(targets, " "))
	opt := Options{Env: []string{"HOME=" + home, "XDG_CONFIG_HOME=" + cfgDir}}
	s.Config.Worktree.Setup = "echo set up"

	all := func(v string) string {
		var b strings.Builder
		for _, p := range []string{"write .bh/tmp", "write .bh/locks", "write .bh/cache", "write run folder"} {
			fmt.Fprintf(&b, "%s: %s\n", p, v)
		}
		for _, n := range targets {
			fmt.Fprintf(&b, "link %s: %s\n", n, v)
		}
		for _, p := range []string{"read web.json", "read repos.json", "read bh's config", "read bh's state"} {
			fmt.Fprintf(&b, "%s: %s\n", p, v)
		}
		return b.String() + "write outbox: yes\n"
	}
	for _, tt := range []struct {
		name    string
		sandbox config.SandboxConfig
		want    string
	}{
		// Unsandboxed every probe works, and still no link is followed:
		// bh writes its run folder as if an agent had been there.
		{"off", config.SandboxConfig{Mode: task.SandboxOff}, all("yes")},
		{"sandboxed", config.SandboxConfig{}, all("no")},
	} {
		if testing.Short() && tt.name == "off" {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			s.Config.Sandbox = tt.sandbox
			s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}}
			tk := addTask(t, s, "probe bh's state "+tt.name)
			runWith(t, s, opt)
			got := getTask(t, s, tk.ID)
			if got.State != task.Closed {
				t.Fatalf("the task is %s: %s %v", got.State, got.Summary, got.Issues)
			}
			if _, err := os.Lstat(jail.OutboxDir(s, mustRepo(t, s).CommonDir(), tk.ID)); err == nil {
				t.Errorf("the closed task's outbox is left behind")
			}
			if probe := readFile(t, s.Root, "probe.txt"); probe != tt.want {
				t.Errorf("probe.txt:\n%s\nwant:\n%s", probe, tt.want)
			}
			for _, n := range targets {
				if b := readFile(t, home, "target-"+n); b != "the user's own\n" {
					t.Errorf("~/target-%s was written through the run folder's %s: %q", n, n, b)
				}
			}
			if tt.name == "sandboxed" {
				for _, p := range []string{filepath.Join(s.Dir, "tmp/pwned"), s.Local("cache/pwned"), store.RunDir(s, tk.ID, "pwned")} {
					if _, err := os.Lstat(p); err == nil {
						t.Errorf("%s was written from the sandbox", p)
					}
				}
			}
			os.Remove(filepath.Join(s.Dir, "tmp", "pwned"))
			os.Remove(s.Local("cache", "pwned"))
			gitT(t, s.Root, "rm", "-q", "probe.txt", "work.txt")
			gitT(t, s.Root, "commit", "-q", "-m", "next probe")
		})
	}
}

// fakeClaude is a claude binary for the worker's claude adapter: it takes
// its session id from --session-id or --resume, writes a transcript where
// Claude Code would, runs attack (a shell line, with $f the transcript's
// path) and prints result as the structured output of its last line.
func fakeClaude(t *testing.T, attack, result string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "claude")
	script := `#!/bin/sh
sid= prev=
for a in "$@"; do
	case $prev in --session-id|--resume) sid=$a;; esac
	if [ "$a" = --version ]; then echo "2.1.330 (Claude Code)"; exit 0; fi
	prev=$a
done
cat >/dev/null
dir=${CLAUDE_CONFIG_DIR:-$HOME/.claude}/projects/$(pwd | sed 's/[^A-Za-z0-9]/-/g')
mkdir -p "$dir"
f=$dir/$sid.jsonl
echo '{"type":"user","sessionId":"'$sid'","message":{"role":"user","content":"the task"}}' >"$f"
` + attack + `
echo '{"type":"result","subtype":"success","is_error":false,"num_turns":1,"session_id":"'$sid'","structured_output":` + result + `}'
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// withRemote gives s a bare origin holding its branch, and the config's
// remote: claims, parked work and session copies travel through it.
func withRemote(t *testing.T, s *store.Store) string {
	t.Helper()
	remote := filepath.Join(t.TempDir(), "origin.git")
	gitT(t, s.Root, "init", "-q", "--bare", remote)
	gitT(t, s.Root, "remote", "add", "origin", remote)
	gitT(t, s.Root, "push", "-q", "-u", "origin", "HEAD")
	s.Config.Remote = "origin"
	return remote
}

// holds says whether any object of the repository at dir holds secret.
func holds(t *testing.T, dir, secret string) bool {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "cat-file", "--batch-all-objects", "--batch").Output()
	if err != nil {
		t.Fatalf("git cat-file in %s: %v", dir, err)
	}
	return bytes.Contains(out, []byte(secret))
}

// The agent replaces its own session transcript with a link to the
// user's ssh key and asks a question, so that the run parks and bh
// copies the session: the copy is refused with a warning, and the key is
// in no copy, no ref and not on the remote. The task waits as it would.
func TestRedTeamTranscriptLinkToTheKeyIsNotCopied(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- red-team-key-6f1c"
	s := newStore(t)
	remote := withRemote(t, s)
	home := t.TempDir()
	writeFile(t, home, ".ssh/id_ed25519", key+"\n")
	s.Config.Agent = config.AgentConfig{Binary: fakeClaude(t, `ln -sfn "$HOME/.ssh/id_ed25519" "$f"`,
		`{"status":"needs_input","summary":"asked","question":"Which color?"}`)}
	tk := addTask(t, s, "Paint the shed")
	evs := runWith(t, s, Options{Env: []string{"HOME=" + home}})
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("the task is %s (%s), want awaiting_input", got.State, got.Summary)
	}
	if e, ok := lastEvent(got, task.EventRunStarted); !ok || e.Sandbox != jail.Sandboxed {
		t.Errorf("the run records sandbox %q", e.Sandbox)
	}
	warned := false
	for _, e := range evs {
		warned = warned || e.Kind == Warning && strings.Contains(e.Summary, "transcript is not copied") &&
			strings.Contains(e.Summary, "symbolic link")
	}
	if !warned {
		t.Errorf("no warning that the transcript was not copied among %+v", evs)
	}
	copied, _ := filepath.Glob(store.RunDir(s, tk.ID, "sessions", "*"))
	for _, c := range copied {
		if b, _ := os.ReadFile(c); bytes.Contains(b, []byte(key)) {
			t.Errorf("the key was copied to %s", c)
		}
	}
	if holds(t, s.Root, key) {
		t.Errorf("the key is in the repository's objects (refs: %s)", gitT(t, s.Root, "for-each-ref", "refs/bh"))
	}
	if holds(t, remote, key) {
		t.Errorf("the key was pushed to the remote (refs: %s)", gitT(t, remote, "for-each-ref"))
	}
}

// Links planted at every name bh writes in a run folder (by an agent of
// an older bh, which could write the folder, or by anyone) are replaced,
// never written through: the journal, its temporary file, the setup log
// and mark, the session copy and its temporary file, and a sessions
// folder that is a link.
func TestRedTeamRunFolderLinksAreReplaced(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	home := t.TempDir()
	s.Config.Worktree.Setup = "echo set up"
	s.Config.Agent = config.AgentConfig{Binary: fakeClaude(t, "", `{"status":"completed","summary":"done"}`)}
	opt := Options{Env: []string{"HOME=" + home}}
	for _, linkedFolder := range []bool{false, true} {
		t.Run(fmt.Sprint("sessions folder linked ", linkedFolder), func(t *testing.T) {
			tk := addTask(t, s, fmt.Sprint("Links ", linkedFolder))
			const sid = "5f0e8a2c-1b1e-4c39-9d7e-0c8f6d3a9b11"
			update(t, s, tk.ID, func(tk *task.Task) { tk.SessionID = sid })
			run := store.RunDir(s, tk.ID)
			names := append([]string{}, runFolderNames...)
			if linkedFolder {
				if err := os.MkdirAll(filepath.Join(home, "target-sessions"), 0o755); err != nil {
					t.Fatal(err)
				}
				plant(t, filepath.Join(home, "target-sessions"), filepath.Join(run, "sessions"))
			} else {
				names = append(names, filepath.Join("sessions", sid+".jsonl"), filepath.Join("sessions", sid+".jsonl.bh-tmp"))
			}
			for _, n := range names {
				target := filepath.Join(home, "target-"+filepath.Base(n))
				writeFile(t, home, "target-"+filepath.Base(n), "the user's own\n")
				plant(t, target, filepath.Join(run, n))
			}
			runWith(t, s, opt)
			if got := getTask(t, s, tk.ID); got.State != task.Closed {
				t.Fatalf("the task is %s: %s", got.State, got.Summary)
			}
			for _, n := range names {
				if b := readFile(t, home, "target-"+filepath.Base(n)); b != "the user's own\n" {
					t.Errorf("~/target-%s was written through the run folder's %s: %q", filepath.Base(n), n, b)
				}
			}
			if ents, _ := os.ReadDir(filepath.Join(home, "target-sessions")); len(ents) != 0 {
				t.Errorf("the session copy went through the linked sessions folder: %v", ents)
			}
			if fi, err := os.Lstat(sessionCopy(s, tk.ID, sid)); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("bh's session copy: %v %v", fi, err)
			}
			if b := readFile(t, run, "setup.log"); !strings.Contains(b, "set up") {
				t.Errorf("setup.log: %q", b)
			}
		})
	}
}

// plant makes a symbolic link at link to target, as a plain step outside
// any sandbox.
func plant(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(link)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// Folders where bh keeps its lock files (made as a plain step: the
// sandbox refuses them now) no longer stop bh: empty ones are removed as
// the lock is taken, so the worker, bh update and bh sync carry on; one
// with files in it is refused with its name, reported by bh doctor and
// removed by bh doctor --fix.
func TestRedTeamFoldersAtLockPathsStopNothing(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	withRemote(t, s)
	s.Config.Remote = "" // bh sync alone uses the remote here
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c",
		`echo done >done.txt; echo '{"status":"completed","summary":"done"}'`}}
	tk := addTask(t, s, "Runs")
	other := addTask(t, s, "Waits")
	locks := s.Local("locks")
	squat := func(withFile bool, paths ...string) {
		t.Helper()
		for _, p := range paths {
			os.RemoveAll(p)
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			if withFile {
				writeFile(t, p, "x", "x")
			}
		}
	}
	squat(false, filepath.Join(locks, tk.ID+".lock"), filepath.Join(locks, landing.LockFile), s.Local("worker.lock"))
	runWith(t, s, Options{})
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("the worker: %s is %s (%s)", tk.ID, got.State, got.Summary)
	}
	squat(false, filepath.Join(locks, other.ID+".lock"), filepath.Join(locks, landing.LockFile))
	update(t, s, other.ID, func(tk *task.Task) { tk.Priority = "P1" })
	if _, err := Sync(s, "origin", true); err != nil {
		t.Fatalf("bh sync: %v", err)
	}

	squatted := filepath.Join(locks, other.ID+".lock")
	squat(true, squatted, filepath.Join(locks, landing.LockFile))
	var nl *store.NotLockError
	if _, err := s.Update(other.ID, func(*task.Task) error { return nil }); !errors.As(err, &nl) || nl.Path != squatted {
		t.Fatalf("bh update with a full folder at its lock: %v", err)
	}
	rep, err := runDoctor(s, false)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range rep.Findings {
		if f.Check == "locks" && f.Status == doctor.Error && f.Fixable &&
			(f.Subject == ".git/bh/locks/"+other.ID+".lock" || f.Subject == ".git/bh/locks/"+landing.LockFile) {
			found++
		}
	}
	if found != 2 {
		t.Fatalf("bh doctor found %d of the 2 folders: %+v", found, rep.Findings)
	}
	if rep, err = runDoctor(s, true); err != nil {
		t.Fatalf("bh doctor --fix: %v", err)
	}
	fixed := 0
	for _, f := range rep.Findings {
		if f.Check == "locks" && f.Status == doctor.Fixed {
			fixed++
		}
	}
	if fixed != 2 {
		t.Errorf("bh doctor --fix fixed %d of the 2 folders: %+v", fixed, rep.Findings)
	}
	update(t, s, other.ID, func(tk *task.Task) { tk.Priority = "P3" })
	if _, err := Sync(s, "origin", true); err != nil {
		t.Fatalf("bh sync after the fix: %v", err)
	}
}

// racer is a hostile agent that swaps a prepared task file (its sandbox
// off, no gate) onto every temporary file it sees in .bh/tmp, and tries
// to make its own there, for as long as bh writes its task file a few
// times (the lease heartbeat). It writes down whether any swap worked and
// how often it saw bh write.
const racer = `t=$BH_ROOT/.bh/tasks/$BH_TASK_ID.yaml
{ echo 'sandbox: "off"'; echo 'gate: none'; grep -v '^sandbox:\|^gate:' "$t"; } >evil.yaml
won=no seen=0 i=0 last=$(cat "$t")
while [ $i -lt 20000 ] && [ $seen -lt 3 ]; do
	i=$((i+1))
	for f in "$BH_ROOT"/.bh/tmp/*; do
		cp evil.yaml evil.next && mv -f evil.next "$f" 2>/dev/null && won=yes
	done
	cp evil.yaml "$BH_ROOT/.bh/tmp/$BH_TASK_ID.yaml.0" 2>/dev/null && won=yes
	now=$(cat "$t")
	if [ "$now" != "$last" ]; then seen=$((seen+1)); last=$now; fi
done
rm -f evil.yaml evil.next
echo "won: $won" >race.txt
[ $seen -gt 0 ] && echo "bh wrote during the race" >>race.txt
echo '{"status":"completed","summary":"raced"}'
`

// The inotify-style racer of issue 27 switched its own sandbox off by
// renaming its file onto bh's temporary name as bh wrote the task file.
// bh's temporary files are out of its reach now: the task file, its
// sandbox mode and its gate are as bh wrote them.
func TestRedTeamTaskWriteRacerLoses(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", racer}}
	tk := addTask(t, s, "Race bh's writes")
	runWith(t, s, Options{Heartbeat: 5 * time.Millisecond}) //: bh writes the task file all through the run
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed {
		t.Fatalf("the task is %s: %s", got.State, got.Summary)
	}
	if r := readFile(t, s.Root, "race.txt"); r != "won: no\nbh wrote during the race\n" {
		t.Errorf("race.txt: %q", r)
	}
	if got.Sandbox != "" || got.Gate != "" {
		t.Errorf("the task file says sandbox %q, gate %q", got.Sandbox, got.Gate)
	}
	if b := readFile(t, s.Dir, "tasks/"+tk.ID+".yaml"); strings.Contains("\n"+b, "\nsandbox:") || strings.Contains("\n"+b, "\ngate:") {
		t.Errorf("the task file holds the agent's lines:\n%s", b)
	}
	for _, e := range got.History {
		if e.Kind == task.EventRunStarted && e.Sandbox != jail.Sandboxed {
			t.Errorf("a run went %q", e.Sandbox)
		}
	}
}

// An agent that puts a link to the user's key where bh mcp records its
// questions: bh reads no key, the run is the agent's failure (whatever it
// reported), and the key is nowhere in the task.
func TestRedTeamOutboxLinkIsTheAgentsFailure(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- red-team-key-0b7d"
	s := newStore(t)
	home := t.TempDir()
	writeFile(t, home, ".ssh/id_ed25519", `{"question":"`+key+`"}`+"\n")
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c",
		`ln -s "$HOME/.ssh/id_ed25519" "$BH_OUTBOX/asked.jsonl" && echo '{"status":"completed","summary":"done"}'`}}
	tk := addTask(t, s, "Ask with a link")
	runWith(t, s, Options{Env: []string{"HOME=" + home}})
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed {
		t.Fatalf("the task is %s (%s), want failed: the agent's failure", got.State, got.Summary)
	}
	if b := readFile(t, s.Dir, "tasks/"+tk.ID+".yaml"); strings.Contains(b, "red-team-key") || !strings.Contains(b, "symbolic link") {
		t.Errorf("the task file:\n%s", b)
	}
	if _, err := os.Lstat(filepath.Join(jail.OutboxDir(s, mustRepo(t, s).CommonDir(), tk.ID), "asked.jsonl")); err == nil {
		t.Errorf("the link is still in the outbox")
	}
}
