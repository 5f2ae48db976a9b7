package synckill

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
)

// killGit stands in for git on PATH: the Nth git call kills bh's whole
// process group with SIGKILL, before the call (between two steps) or
// while git runs (in the middle of one), as a crash or an OOM kill would.
const killGit = `#!/bin/sh
n=$(cat "$KILL_DIR/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$KILL_DIR/count"
if [ "$n" = "$KILL_AT" ]; then
  echo "$*" > "$KILL_DIR/killed"
  if [ "$KILL_HOW" = during ]; then
    "$REAL_GIT" "$@" & sleep 0.00$(( $(od -An -N1 -tu1 /dev/urandom) % 10 ))
  fi
  kill -9 -$KILL_PGID
fi
exec "$REAL_GIT" "$@"
`

// TestSyncKilledAtEveryGitStep kills bh sync at each of its git calls,
// before the call and in the middle of it. Whatever instant it died at,
// git fetch and git gc work in the repository afterwards, no worktree is
// left registered, and the next bh sync finishes the job.
func TestSyncKilledAtEveryGitStep(t *testing.T) {
	root, seed, wrap, realGit := syncSeed(t, killGit)
	steps, points := syncGitCalls(t, root, seed, wrap, realGit), 0
	for _, how := range []string{"before", "during"} {
		for n := 1; n <= steps; n++ {
			// -short's one point in ten is killed before or during in turns.
			if !fakeapi.Sampled(n) || testing.Short() && (n/10%2 == 1) != (how == "during") {
				continue
			}
			points++
			// Each point has its own copy of the seed: they run side by side.
			t.Run(fmt.Sprintf("%s-%d", how, n), func(t *testing.T) {
				t.Parallel()
				clone := copySeed(t, seed, filepath.Join(root, fmt.Sprintf("%s-%d", how, n)))
				if !syncKilledAt(t, clone, wrap, realGit, how, n) {
					t.Fatalf("bh sync made no git call %d this time", n)
				}
				checkAfterKill(t, clone)
			})
		}
	}
	t.Logf("bh sync killed at %d points: before and during each of its %d git calls (-short: one in ten, before or during in turns)", points, steps)

}

// syncSeed makes the start of the sync tests: a clone a and its remote
// each hold a commit the other lacks, so that sync commits, fetches,
// replays (the merge driver included), moves a's tree and pushes; and a
// folder holding the git wrapper given.
func syncSeed(t *testing.T, wrapper string) (root, seed, wrap, realGit string) {
	t.Helper()
	root = t.TempDir()
	bin := e2e.Bin(t, root)
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	wrap = filepath.Join(root, "wrap")
	os.MkdirAll(wrap, 0o755)
	if err := os.WriteFile(filepath.Join(wrap, "git"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("HOME", root)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(root, "gitconfig"))
	os.WriteFile(filepath.Join(root, "gitconfig"), []byte("[user]\n\tname = t\n\temail = t@t\n"), 0o644)

	seed = filepath.Join(root, "seed")
	e2e.Git(t, root, "init", "-q", "--bare", "-b", "main", filepath.Join(seed, "remote.git"))
	a, b := filepath.Join(seed, "a"), filepath.Join(seed, "b")
	e2e.Git(t, seed, "clone", "-q", "remote.git", a)
	bhE2E(t, a, "init")
	e2e.Write(t, a, "README", "hello\n")
	e2e.Git(t, a, "add", "README")
	e2e.Git(t, a, "commit", "-q", "-m", "base")
	shared := strings.TrimSpace(bhE2E(t, a, "add", "Shared task"))
	bhE2E(t, a, "sync")
	e2e.Git(t, seed, "clone", "-q", "remote.git", b)
	bhE2E(t, b, "update", shared, "--priority", "P0")
	bhE2E(t, b, "add", "From b")
	bhE2E(t, b, "sync")
	bhE2E(t, a, "update", shared, "--title", "Shared task, renamed in a")
	bhE2E(t, a, "add", "From a")
	e2e.Write(t, a, "notes.txt", "the user's own untracked file\n")

	return root, seed, wrap, realGit
}

// copySeed copies the seed to dir and returns its clone a, pointed at the
// copy's remote.
func copySeed(t *testing.T, seed, dir string) string {
	t.Helper()
	if out, err := exec.Command("cp", "-a", seed, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	clone := filepath.Join(dir, "a")
	e2e.Git(t, clone, "remote", "set-url", "origin", filepath.Join(dir, "remote.git"))
	return clone
}

// syncKilledAt runs bh sync in clone with git call n killed; it reports
// whether the kill happened (false: sync made fewer calls and finished).
func syncKilledAt(t *testing.T, clone, wrap, realGit, how string, n int) bool {
	t.Helper()
	state := t.TempDir()
	c := exec.Command("bh", "sync")
	c.Dir = clone
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Env = append(os.Environ(), "PATH="+wrap+string(os.PathListSeparator)+os.Getenv("PATH"),
		"KILL_DIR="+state, "KILL_AT="+strconv.Itoa(n), "KILL_HOW="+how, "REAL_GIT="+realGit)
	// The group id is bh's pid, known once it starts: the wrapper reads it
	// from the environment of a shell that starts bh.
	c.Path, c.Args = "/bin/sh", []string{"sh", "-c", `KILL_PGID=$$ exec bh sync`}
	out, err := c.CombinedOutput()
	killed, _ := os.ReadFile(filepath.Join(state, "killed"))
	if len(killed) == 0 {
		if err != nil {
			t.Fatalf("bh sync (%s %d, not killed): %v\n%s", how, n, err, out)
		}
		return false
	}
	t.Logf("killed %s git call %d: git %s", how, n, strings.TrimSpace(string(killed)))
	return true
}

// checkAfterKill: git fetch and gc work, no worktree is registered, the
// next bh sync finishes, and the user's file and both sides' tasks are there.
func checkAfterKill(t *testing.T, clone string) {
	t.Helper()
	// A git killed in its own middle leaves its lock: bh waits on it as on
	// any, and once it is old, bh doctor --fix removes it (a user's way out).
	locks, _ := filepath.Glob(filepath.Join(clone, ".git", "*.lock"))
	filepath.WalkDir(filepath.Join(clone, ".git", "refs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".lock") {
			locks = append(locks, p)
		}
		return nil
	})
	if len(locks) > 0 {
		old := time.Now().Add(-time.Hour)
		for _, l := range locks {
			os.Chtimes(l, old, old)
		}
		t.Logf("left by the killed git: %v", locks)
		doctor := exec.Command("bh", "doctor", "--fix")
		doctor.Dir = clone
		out, _ := doctor.CombinedOutput()
		for _, l := range locks {
			if _, err := os.Stat(l); err == nil {
				t.Errorf("bh doctor --fix left the stale %s:\n%s", l, out)
			}
		}
	}
	bhE2E(t, clone, "sync")
	e2e.Git(t, clone, "fetch", "-q", "origin")
	e2e.Git(t, clone, "gc", "-q")
	e2e.Git(t, clone, "fsck", "--no-progress")
	if wts := e2e.Git(t, clone, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
		t.Errorf("worktrees left registered:\n%s", wts)
	}
	if got := e2e.Read(t, clone, "notes.txt"); got != "the user's own untracked file\n" {
		t.Errorf("notes.txt = %q", got)
	}
	list := bhE2E(t, clone, "list", "--all")
	for _, want := range []string{"From a", "From b", "renamed in a"} {
		if !strings.Contains(list, want) {
			t.Errorf("after the kill and a sync, bh list lacks %q:\n%s", want, list)
		}
	}
	if st := e2e.Git(t, clone, "status", "--porcelain", "--", ".bh"); st != "" {
		t.Errorf(".bh not committed after sync: %s", st)
	}
}

// lockGit stands in for git on PATH: before the Nth git call it takes a
// lock of the user's repository ($LOCK_PATH), as the user's own git or an
// editor's would be; it lets go at the next call, which a retry is.
const lockGit = `#!/bin/sh
n=$(cat "$KILL_DIR/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$KILL_DIR/count"
if [ -f "$KILL_DIR/held" ]; then rm -f "$LOCK_PATH" "$KILL_DIR/held"; fi
if [ "$n" = "$KILL_AT" ]; then
  mkdir -p "$(dirname "$LOCK_PATH")"
  : > "$LOCK_PATH"; echo "$*" > "$KILL_DIR/held"; cp "$KILL_DIR/held" "$KILL_DIR/killed"
fi
exec "$REAL_GIT" "$@"
`

// TestSyncWaitsOutGitLocks holds a lock of the user's repository (the
// index, the branch's ref, packed-refs) across each of bh sync's git
// calls: sync waits it out and ends as it would have without it.
func TestSyncWaitsOutGitLocks(t *testing.T) {
	root, seed, wrap, realGit := syncSeed(t, lockGit)
	points, steps := 0, syncGitCalls(t, root, seed, wrap, realGit)
	for i, lock := range []string{"index.lock", "refs/heads/main.lock", "packed-refs.lock"} {
		for n := 1; n <= steps; n++ {
			// -short's one point in ten holds each lock in turns.
			if !fakeapi.Sampled(n) || testing.Short() && n/10%3 != i {
				continue
			}
			points++
			// Each point has its own copy of the seed: they run side by side.
			t.Run(fmt.Sprintf("%s-%d", strings.ReplaceAll(lock, "/", "-"), n), func(t *testing.T) {
				t.Parallel()
				clone := copySeed(t, seed, filepath.Join(root, fmt.Sprintf("%s-%d", strings.ReplaceAll(lock, "/", "-"), n)))
				state := t.TempDir()
				c := exec.Command("bh", "sync")
				c.Dir = clone
				c.Env = append(os.Environ(), "PATH="+wrap+string(os.PathListSeparator)+os.Getenv("PATH"),
					"KILL_DIR="+state, "KILL_AT="+strconv.Itoa(n), "REAL_GIT="+realGit,
					"LOCK_PATH="+filepath.Join(clone, ".git", lock))
				out, err := c.CombinedOutput()
				held, _ := os.ReadFile(filepath.Join(state, "killed"))
				if err != nil {
					t.Fatalf("bh sync with %s held from git call %d (git %s): %v\n%s", lock, n, strings.TrimSpace(string(held)), err, out)
				}
				os.Remove(filepath.Join(clone, ".git", lock)) // held past sync's last call
				checkAfterKill(t, clone)
			})
		}
	}
	t.Logf("bh sync waited out %d held locks (3 kinds, at each git call)", points)
}

// syncGitCalls counts the git calls of a bh sync from the seed, untouched.
func syncGitCalls(t *testing.T, root, seed, wrap, realGit string) int {
	t.Helper()
	clone := copySeed(t, seed, filepath.Join(root, "count"))
	state := t.TempDir()
	c := exec.Command("bh", "sync")
	c.Dir = clone
	c.Env = append(os.Environ(), "PATH="+wrap+string(os.PathListSeparator)+os.Getenv("PATH"),
		"KILL_DIR="+state, "KILL_AT=0", "REAL_GIT="+realGit, "LOCK_PATH="+filepath.Join(state, "unused.lock"))
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("bh sync: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(state, "count"))
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || n == 0 {
		t.Fatalf("bh sync ran no git: %q", b)
	}
	return n
}
