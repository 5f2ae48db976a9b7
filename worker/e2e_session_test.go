package worker

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/slots"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The real Claude Code CLI against a fake Messages API: the session a task
// waits in survives Claude Code deleting it (bh's copy is put back and the
// same session resumed), and when no copy is left either, a fresh session
// starts with the task's question and answer in its first request. A
// task whose pool slot went while it waited resumes in another slot (a
// working directory Claude Code never saw it in): its parked work is put
// back there and the same session resumed.
func TestClaudeSessionSurvivesItsDeletion(t *testing.T) {
	for _, name := range []string{"restored", "lost", "other-slot"} {
		lose := name == "lost"
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
				switch p := req.Prompt(); {
				case strings.Contains(p, "Answer: blue") && len(req.ToolResults()) == 0:
					return fakeapi.Reply(fakeapi.Write("color.txt", "blue\n"))
				case strings.Contains(p, "Answer: blue"):
					return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "painted it blue"}))
				case len(req.ToolResults()) == 0:
					return fakeapi.Reply(fakeapi.Write("draft.txt", "draft\n"))
				}
				return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input",
					"summary": "drafted", "question": "Which color?"}))
			})
			s := newStore(t)
			s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
			env := fakeapi.Env(t, srv)
			opt := Options{Env: env}
			tk := addTask(t, s, "Paint the shed")
			runWith(t, s, opt)
			asked := getTask(t, s, tk.ID)
			if asked.State != task.AwaitingInput {
				t.Fatalf("asked: %s %s", asked.State, asked.Summary)
			}
			home := strings.TrimPrefix(env[slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "HOME=") })], "HOME=")
			// The task's own agent state holds the session, the user's none.
			state := jail.AgentStateDir(s.Root, mustRepo(t, s).CommonDir(), tk.ID, "claude")
			files, _ := filepath.Glob(filepath.Join(state, "projects", "*", asked.SessionID+".jsonl"))
			if len(files) != 1 {
				t.Fatalf("claude's session files: %q", files)
			}
			if theirs, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*")); len(theirs) != 0 {
				t.Errorf("the run wrote into the user's ~/.claude: %q", theirs)
			}
			slot := slots.WorktreePath(s, mustRepo(t, s), tk.ID)
			if name == "other-slot" {
				// The slot goes (bh doctor --fix, a user's rm), and a stray
				// folder keeps its name: the task comes back in slot 2.
				gitT(t, s.Root, "worktree", "remove", "--force", slot)
				if err := os.Mkdir(slot, 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				os.Remove(files[0]) // Claude Code's own copy goes (its 30-day cleanup, another HOME)
			}
			kept := sessionCopy(s, tk.ID, asked.SessionID)
			if _, err := os.Stat(kept); err != nil {
				t.Fatalf("bh kept no copy of the session: %v", err)
			}
			if lose {
				os.Remove(kept)
			}
			answer(t, s, tk.ID, "blue")
			runWith(t, s, opt)

			got := getTask(t, s, tk.ID)
			if got.State != task.Closed {
				t.Fatalf("after the answer: %s %s", got.State, got.Summary)
			}
			if back, ok := lastEvent(got, task.EventUnparked); name == "other-slot" &&
				(!ok || !strings.Contains(back.Text, "worktree recreated at "+filepath.Join(filepath.Dir(slot), "2")+" from")) {
				t.Errorf("the parked work was not put back into slot 2: %+v", back)
			}
			reqs := srv.Requests()
			first := reqs[2] // the run after the answer
			lost, hasLost := lastEvent(got, task.EventSessionLost)
			if !lose {
				if got.SessionID != asked.SessionID || hasLost {
					t.Errorf("session %s -> %s (lost: %v), want the same session resumed", asked.SessionID, got.SessionID, hasLost)
				}
				if calls := first.ToolUses(); len(calls) == 0 || calls[0].Name != "Write" {
					t.Errorf("the resumed request lacks the earlier turns: %+v", calls)
				}
			} else {
				if got.SessionID == asked.SessionID || !hasLost || lost.Session != asked.SessionID {
					t.Errorf("session %s -> %s, lost event %+v", asked.SessionID, got.SessionID, lost)
				}
				p := first.Prompt()
				for _, want := range []string{"Paint the shed", "Which color?", "Answer: blue", "draft.txt"} {
					if !strings.Contains(p, want) {
						t.Errorf("the fresh session's first prompt lacks %q:\n%s", want, p)
					}
				}
				if len(first.ToolUses()) != 0 {
					t.Errorf("a fresh session carries earlier turns: %+v", first.ToolUses())
				}
			}
			if c := committed(t, s.Root, "HEAD"); !slices.Equal(c, []string{".bh/tasks/" + tk.ID + ".yaml", "color.txt", "draft.txt"}) {
				t.Errorf("commit holds %v", c)
			}
		})
	}
}
