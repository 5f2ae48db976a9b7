package worker

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// TestRedteamRecordsForgedBase: a sandboxed agent rewrites bh's record of
// its fork point to an older commit, in the admin dir where bh kept it
// (bh-base, bh-base-onto) and where bh keeps it now, and the store marker
// that names the main tree for bh run in the worktree, while the user moves
// main on. Measured from the forged base, the landing's rebase replays the
// user's own older commit over their newer one and stops on a conflict;
// the record being out of the agent's reach, the task lands its own work
// exactly.
func TestRedteamRecordsForgedBase(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	dir := s.Root
	commitU := func(body string) string {
		writeFile(t, dir, "u.txt", body)
		gitT(t, dir, "add", "u.txt")
		gitT(t, dir, "commit", "-q", "-m", "the user's "+strings.TrimSpace(body))
		return strings.TrimSpace(gitT(t, dir, "rev-parse", "HEAD"))
	}
	commitU("v0\n")
	commitU("v1\n")
	script := `admin=$(sed -n 's/^gitdir: //p' .git)
common=$(cd "$admin" && cd "$(cat commondir)" && pwd)
old=$(git log -1 --format=%H --grep='s v0$')
echo "$old" >"$admin/bh-base"; echo "$old" >"$admin/bh-base-onto"
forged=kept
for f in "$common"/bh/records/*/base "$common"/bh/records/*/base-onto; do
	{ echo "$old" >"$f"; } 2>/dev/null && forged=rewritten
done
mkdir -p "$common/bh/records/x" 2>/dev/null && forged=rewritten
{ echo / >"$admin/bh-store"; } 2>/dev/null && forged=rewritten
echo "$forged" >attack.txt
echo written >work.txt
echo '{"status":"completed","summary":"attacked"}'
`
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}}
	tk := addTask(t, s, "attack the fork point")
	gitT(t, dir, "add", ".bh")
	gitT(t, dir, "commit", "-q", "-m", "tasks")

	var mu sync.Mutex
	moved := false
	opt := Options{Env: []string{"HOME=" + t.TempDir()}, Once: true, Report: func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Kind == Started && e.Task == tk.ID && !moved { // the user moves on while the agent works
			moved = true
			commitU("v2\n")
		}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	if err := Run(ctx, ctx, s, opt); err != nil {
		t.Fatalf("worker: %v", err)
	}
	if !moved {
		t.Fatal("the task never started")
	}
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("%s is %s: %s %v", tk.ID, got.State, got.Summary, got.Issues)
	}
	if got := readFile(t, dir, "attack.txt"); got != "kept\n" {
		t.Errorf("the agent wrote bh's records: %q", got)
	}
	if got := readFile(t, dir, "u.txt"); got != "v2\n" {
		t.Errorf("the user's u.txt is %q, want their newest v2", got)
	}
	landed := strings.TrimSpace(gitT(t, dir, "log", "-1", "--format=%H", "--", "work.txt"))
	var own []string
	for _, p := range strings.Fields(gitT(t, dir, "show", "--name-only", "--format=", landed)) {
		if !strings.HasPrefix(p, ".bh/") {
			own = append(own, p)
		}
	}
	if strings.Join(own, " ") != "attack.txt work.txt" {
		t.Errorf("the task's commit holds %v, want its own attack.txt and work.txt", own)
	}
}
