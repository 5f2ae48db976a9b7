package worker

import (
	"os"
	"testing"

	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/journal"
)

// A journal is written with journal.Version; one of another version (an
// older bh's, without one) keeps where its run is, but its ending is
// decided again rather than carried out as it was journaled.
func TestJournalOfAnotherVersionIsDecidedAgain(t *testing.T) {
	s := newStore(t)
	tk := addTask(t, s, "journaled")
	e := ending.Decide(ending.Facts{What: ending.RunLost})
	j := &journal.Journal{Task: tk.ID, Worktree: "/wt/1", Branch: "bh/" + tk.ID, Ending: &e, Waiting: "a lock"}
	if err := journal.Save(s, j); err != nil {
		t.Fatal(err)
	}
	got, err := journal.Load(s, tk.ID)
	if err != nil || got == nil || got.Version != journal.Version || got.Ending == nil || got.Waiting != "a lock" {
		t.Fatalf("this version's journal read back as %+v, %v", got, err)
	}
	older := `{"task": "` + tk.ID + `", "worktree": "/wt/1", "branch": "bh/` + tk.ID + `", "ending": {"fate": "land"}, "waiting": "a lock"}`
	if err := os.WriteFile(journal.Path(s, tk.ID), []byte(older), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = journal.Load(s, tk.ID)
	if err != nil || got == nil || got.Worktree != "/wt/1" || got.Branch != "bh/"+tk.ID {
		t.Fatalf("an older journal read as %+v, %v: where its run is was lost", got, err)
	}
	if got.Ending != nil || got.Waiting != "" {
		t.Errorf("an older journal's ending is carried out as journaled: %+v", got.Ending)
	}
}
