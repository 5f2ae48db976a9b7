package storegit

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// TestSyncLeavesHeartbeatsUncommitted: a sync commits no store change
// that only renewed a lease, commits a real change once, and commits the
// heartbeats after all when the pull changes that very file (else git
// would refuse to pull over them).
func TestSyncLeavesHeartbeatsUncommitted(t *testing.T) {
	s, bare := sharedStore(t)
	tk := storetest.Add(t, s, "Runs a while")
	now := time.Now().UTC().Truncate(time.Second)
	if _, err := s.Update(tk.ID, func(t *task.Task) error {
		t.State = task.InProgress
		t.Description = strings.Repeat("a line of the description\n", 8) // the title's change merges as text
		t.Lease = &task.Lease{Worker: "w", PID: 1, Host: "h", Heartbeat: now, StartedAt: now}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	res, err := Sync(s, "", true)
	if err != nil || !res.Committed {
		t.Fatalf("the claim: committed %v, %v; want a commit", res.Committed, err)
	}
	head := gittest.Out(t, s.Root, "rev-parse", "HEAD")
	beat := func(at time.Time) {
		t.Helper()
		if _, err := s.Update(tk.ID, func(t *task.Task) error { t.Lease.Heartbeat = at; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	beat(now.Add(15 * time.Second))
	if res, err := Sync(s, "", true); err != nil || res.Committed {
		t.Fatalf("a heartbeat: committed %v, %v; want nothing", res.Committed, err)
	}
	if got := gittest.Out(t, s.Root, "rev-parse", "HEAD"); got != head {
		t.Fatalf("HEAD moved from %s to %s for a heartbeat", head, got)
	}

	// Another clone changes the task's title and pushes: the pull needs
	// the file, so this round commits the heartbeat first, once.
	other := filepath.Join(t.TempDir(), "other")
	gittest.Out(t, s.Root, "clone", "-q", bare, other)
	gittest.Out(t, other, "config", "user.name", "o")
	gittest.Out(t, other, "config", "user.email", "o@example.com")
	// git's own text merge, not bh merge-file (no bh binary here): the two
	// changes are lines apart.
	gittest.Write(t, s.Root, ".git/info/attributes", ".bh/tasks/*.yaml merge=text\n")
	p := filepath.Join(".bh", "tasks", tk.ID+".yaml")
	body := gittest.Read(t, other, p)
	gittest.Write(t, other, p, strings.Replace(body, "title: Runs a while", "title: Runs a good while", 1))
	gittest.Out(t, other, "commit", "-q", "-am", "title")
	gittest.Out(t, other, "push", "-q", "origin", "HEAD")
	beat(now.Add(30 * time.Second))
	res, err = Sync(s, "", true)
	if err != nil || !res.Committed || res.Pulled != 1 {
		t.Fatalf("heartbeat under a pull: %+v, %v; want one commit and the pull", res, err)
	}
	got := storetest.Get(t, s, tk.ID)
	if got.Title != "Runs a good while" || !got.Lease.Heartbeat.Equal(now.Add(30*time.Second)) {
		t.Errorf("after the pull: title %q, heartbeat %s; want the new title and the last beat", got.Title, got.Lease.Heartbeat)
	}
	if n := gittest.Out(t, s.Root, "rev-list", "--count", head+"..HEAD"); n != "2" {
		t.Errorf("%s commits since the claim, want 2 (the heartbeat, the pulled change)", n)
	}
}

// TestBookkeepingFields: only the lease and updatedAt are bookkeeping.
func TestBookkeepingFields(t *testing.T) {
	base := &task.Task{ID: "tm-ab12", Title: "x", Type: "code", Priority: "P2", State: task.InProgress,
		CreatedAt: time.Unix(1e9, 0).UTC(), UpdatedAt: time.Unix(1e9, 0).UTC(),
		Lease: &task.Lease{Worker: "w", PID: 1, Host: "h", Heartbeat: time.Unix(1e9, 0).UTC()}}
	enc := func(f func(t *task.Task)) []byte {
		c := *base
		l := *base.Lease
		c.Lease = &l
		f(&c)
		b, err := task.Render(&c, nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	was := enc(func(*task.Task) {})
	for name, c := range map[string]struct {
		f    func(t *task.Task)
		want bool
	}{
		"heartbeat": {func(t *task.Task) {
			t.Lease.Heartbeat = t.Lease.Heartbeat.Add(time.Minute)
			t.UpdatedAt = t.Lease.Heartbeat
		}, true},
		"state":    {func(t *task.Task) { t.State = task.AwaitingInput }, false},
		"priority": {func(t *task.Task) { t.Priority = "P0" }, false},
		"summary":  {func(t *task.Task) { t.Summary = "done" }, false},
	} {
		if got := bookkeeping(".bh/tasks/tm-ab12.yaml", "tm-ab12", was, enc(c.f)); got != c.want {
			t.Errorf("%s: bookkeeping %v, want %v", name, got, c.want)
		}
	}
}
