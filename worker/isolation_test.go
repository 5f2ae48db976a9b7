package worker

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// userFiles are the user's own files, as the tests leave them: a tracked
// file they edit while the agent runs, one they create meanwhile, one
// they stage meanwhile, and an ignored one.
var userFiles = []string{"README.md", "mine.txt", "staged.txt", ".env"}

// userWorks is what the user does while an agent runs: edit a tracked
// file, create one, stage a change.
func userWorks(t testing.TB, root string, round int) {
	writeFile(t, root, "README.md", fmt.Sprintf("# demo\nthe user's edit %d\n", round))
	writeFile(t, root, "mine.txt", fmt.Sprintf("the user's file %d\n", round))
	writeFile(t, root, "staged.txt", fmt.Sprintf("staged by the user %d\n", round))
	gitT(t, root, "add", "staged.txt")
}

func hashes(t testing.TB, root string) map[string][32]byte {
	out := map[string][32]byte{}
	for _, f := range userFiles {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err == nil {
			out[f] = sha256.Sum256(b)
		}
	}
	return out
}

// agentThatTramples writes a file and deletes a tracked one while the user
// works in their tree; with overlap it also deletes and rewrites the very
// files the user is editing.
func agentThatTramples(t testing.TB, s *store.Store, res agent.Result, round int, overlap bool) stepFn {
	return func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		if req.Dir == s.Root {
			t.Errorf("the agent runs in the user's tree")
		}
		userWorks(t, s.Root, round)
		os.Remove(filepath.Join(req.Dir, "old.txt"))
		if overlap {
			os.Remove(filepath.Join(req.Dir, "README.md"))
			writeFile(t, req.Dir, "staged.txt", "the agent's version\n")
		}
		writeFile(t, req.Dir, fmt.Sprintf("agent%d.txt", round), "the agent's work\n")
		return &agent.Outcome{Result: res, SessionID: req.SessionID}, nil
	}
}

func TestUserBytesStayWhateverTheEnding(t *testing.T) {
	t.Parallel()
	needs := agent.Result{Status: agent.StatusNeedsInput, Summary: "asks", Question: "Which?"}
	failed := agent.Result{Status: agent.StatusFailed, Summary: "cannot"}
	cases := []struct {
		name    string
		gate    bool
		overlap bool
		want    task.State
		steps   []agent.Result
		after   func(t *testing.T, s *store.Store, id string)
	}{
		{"completed", false, false, task.Closed, []agent.Result{done("did it")}, nil},
		{"failed", false, false, task.Failed, []agent.Result{failed}, nil},
		{"needs_input, respond, completed", false, false, task.Closed, []agent.Result{needs, done("did it")},
			func(t *testing.T, s *store.Store, id string) { answer(t, s, id, "this one") }},
		// The agent rewrites and deletes the user's own files: git will not
		// land that over the user's edits, so the human is asked.
		{"completed over the user's files", false, true, task.AwaitingInput, []agent.Result{done("did it")}, nil},
		{"gate rejected, revised, approved", true, false, task.Closed, []agent.Result{done("v1"), done("v2")},
			func(t *testing.T, s *store.Store, id string) {
				answer(t, s, id, map[bool]string{true: "no", false: "yes"}[count(getTask(t, s, id), task.EventRunFinished) == 1])
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			writeFile(t, s.Root, ".gitignore", ".env\n")
			writeFile(t, s.Root, ".env", "SECRET=1\n")
			writeFile(t, s.Root, "staged.txt", "original\n")
			writeFile(t, s.Root, "old.txt", "old\n")
			gitT(t, s.Root, "add", ".gitignore", "staged.txt", "old.txt")
			gitT(t, s.Root, "commit", "-q", "-m", "files")
			tk := addTask(t, s, "trample")
			if c.gate {
				update(t, s, tk.ID, func(tk *task.Task) { tk.Gate = task.GateApproval })
			}
			f := &fake{}
			for i, res := range c.steps {
				f.steps = append(f.steps, agentThatTramples(t, s, res, i, c.overlap))
			}
			for range c.steps {
				runWith(t, s, Options{Runner: f, Once: true})
				if c.after != nil && getTask(t, s, tk.ID).State == task.AwaitingInput {
					c.after(t, s, tk.ID)
				}
			}
			runWith(t, s, Options{Runner: f, Once: true}) // an approval lands without a run
			if got := getTask(t, s, tk.ID).State; got != c.want {
				t.Errorf("the task is %s, want %s", got, c.want)
			}
			if landed := !exists(s.Root, "old.txt"); landed != (c.want == task.Closed) {
				t.Errorf("the agent's work landed: %v, want %v", landed, c.want == task.Closed)
			}
			want := hashes(t, s.Root)
			userWorks(t, s.Root, len(c.steps)-1) // what the user's tree must hold: their last round
			if got := hashes(t, s.Root); !maps(got, want) {
				t.Errorf("the user's files changed")
			}
			if st := gitT(t, s.Root, "diff", "--cached", "--name-only"); st != "staged.txt" {
				t.Errorf("staged: %q, want the user's staged.txt only", st)
			}
			for _, rev := range strings.Split(gitT(t, s.Root, "rev-list", "HEAD"), "\n") {
				for _, p := range committed(t, s.Root, rev) {
					if slices.Contains(userFiles, p) && p != "staged.txt" && p != "README.md" {
						t.Errorf("commit %s holds the user's %s", rev, p)
					}
					if p == "staged.txt" || p == "README.md" {
						if body := gitT(t, s.Root, "show", rev+":"+p); strings.Contains(body, "user") {
							t.Errorf("commit %s holds the user's content of %s", rev, p)
						}
					}
				}
			}
		})
	}
}

func answer(t *testing.T, s *store.Store, id, text string) {
	t.Helper()
	if _, err := Respond(s, id, []task.Answer{{Values: []string{text}}}, "user"); err != nil {
		t.Fatal(err)
	}
}

func maps(a, b map[string][32]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
