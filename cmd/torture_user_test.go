package cmd

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// userUnderFire is the human working in clone a while the workers run
// there: editing tracked files, staging some, leaving untracked and
// ignored files, and committing their own work. It remembers what each of
// their files must hold, and which commits are theirs.
type userUnderFire struct {
	dir     string
	rng     *rand.Rand
	files   map[string]string // path → what the user last wrote there
	commits []string          // the subjects of the user's own commits
	actions int
}

func newUserUnderFire(t *testing.T, dir string, rng *rand.Rand) *userUnderFire {
	t.Helper()
	u := &userUnderFire{dir: dir, rng: rng, files: map[string]string{}}
	u.write(t, ".gitignore", "*.log\n")
	for i := range 5 {
		u.write(t, fmt.Sprintf("u-%d.txt", i), "start\n")
	}
	u.git(t, "add", ".gitignore", "u-0.txt", "u-1.txt", "u-2.txt", "u-3.txt", "u-4.txt")
	u.commit(t)
	return u
}

// act does one thing a person at work does.
func (u *userUnderFire) act(t *testing.T) {
	u.actions++
	n := u.actions
	switch u.rng.IntN(5) {
	case 0, 1: // edit a tracked file, and leave it unstaged
		u.write(t, fmt.Sprintf("u-%d.txt", u.rng.IntN(5)), fmt.Sprintf("edit %d\n", n))
	case 2: // edit and stage
		p := fmt.Sprintf("u-%d.txt", u.rng.IntN(5))
		u.write(t, p, fmt.Sprintf("staged %d\n", n))
		u.git(t, "add", p)
	case 3: // an untracked file, and an ignored one
		u.write(t, fmt.Sprintf("new-%d.txt", n%7), fmt.Sprintf("untracked %d\n", n))
		u.write(t, fmt.Sprintf("build-%d.log", n%5), fmt.Sprintf("ignored %d\n", n))
	case 4: // commit their tracked edits
		u.git(t, "add", "u-0.txt", "u-1.txt", "u-2.txt", "u-3.txt", "u-4.txt")
		u.commit(t)
	}
}

func (u *userUnderFire) write(t *testing.T, path, body string) {
	if err := os.WriteFile(filepath.Join(u.dir, path), []byte(body), 0o644); err != nil {
		t.Errorf("the user's write of %s: %v", path, err)
	}
	u.files[path] = body
}

func (u *userUnderFire) commit(t *testing.T) {
	subject := fmt.Sprintf("user's own commit %d", len(u.commits)+1)
	if out, err := u.run("commit", "-q", "-m", subject); err != nil {
		if strings.Contains(out, "nothing to commit") || strings.Contains(out, "nothing added to commit") || strings.Contains(out, "no changes added") {
			return
		}
		t.Logf("the user's commit failed (they would try again): %s", out)
		return
	}
	u.commits = append(u.commits, subject)
}

// git runs the user's git command; a lock bh holds makes them try again,
// as a person would.
func (u *userUnderFire) git(t *testing.T, args ...string) {
	for try := 0; ; try++ {
		out, err := u.run(args...)
		if err == nil || try == 50 || !strings.Contains(out, ".lock") {
			if err != nil {
				t.Logf("the user's git %v: %s", args, out)
			}
			return
		}
	}
}

func (u *userUnderFire) run(args ...string) (string, error) {
	c := exec.Command("git", args...)
	c.Dir = u.dir
	out, err := c.CombinedOutput()
	return string(out), err
}

// check: every file holds what the user last wrote there, and every one
// of their commits is in the history.
func (u *userUnderFire) check(t *testing.T) {
	t.Helper()
	for path, want := range u.files {
		got, err := os.ReadFile(filepath.Join(u.dir, path))
		if err != nil || string(got) != want {
			t.Errorf("the user's %s holds %q (%v), want %q", path, got, err, want)
		}
	}
	log, _ := u.run("log", "--format=%s")
	for _, s := range u.commits {
		if !strings.Contains(log, s+"\n") {
			t.Errorf("the user's %q is not in the history", s)
		}
	}
	t.Logf("the user: %d actions, %d commits of their own, %d files", u.actions, len(u.commits), len(u.files))
}
