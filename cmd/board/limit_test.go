package board

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/outage"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// A usage limit holding the queue back shows in the board's head, and r
// resumes the queue as bh worker --resume does.
func TestBoardShowsAndResumesTheUsageLimitPause(t *testing.T) {
	s := storetest.New(t)
	dir := s.Root
	r, err := git.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	ref := outage.AccountRef(s.Config.Agent.Name(), nil)
	h := outage.Hold{ResetsAt: now.Add(time.Hour), Window: "five_hour", Status: agent.LimitRejected}
	if err := outage.Keep(r, ref, h); err != nil {
		t.Fatal(err)
	}
	m := newBoardModel(Options{IO: &ui.IOStreams{Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer)}, Store: s,
		Now: func() time.Time { return now }})
	defer m.close()
	m.width, m.height = 160, 24
	want := "paused by the five-hour usage limit until " + now.Add(time.Hour).Local().Format("15:04")
	if v := m.View(); !strings.Contains(v, want) || !strings.Contains(v, "r resume") {
		t.Fatalf("the board says:\n%s", v)
	}
	m.Update(typed("r"))
	if got, _ := r.Ref(ref); got != "" || m.held != "" {
		t.Fatalf("after r the hold is still there (%s): %s", got, m.note)
	}
}
