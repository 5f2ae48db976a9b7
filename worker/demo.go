package worker

import (
	"context"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/demoagent"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/slots"
)

// RunDemo shows bh end to end in dir, which it makes a fresh git
// repository: two tasks, a scripted agent that completes one and asks a
// question on the other, a human answer given the way `bh respond` gives
// it, and the resumed session's commit. It needs no network and no real
// agent; afterwards dir's git log shows the result.
func RunDemo(ctx context.Context, dir string, report func(Event)) error {
	if err := git.InitDemo(dir); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	s, _, err := store.Init(dir)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := git.CommitDemo(dir, "bh init", ".bh"); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	greet, err := s.Create(&task.Task{Title: "Add a greeting script", Priority: "P1",
		Description: "hello.sh prints a greeting."})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	lic, err := s.Create(&task.Task{Title: "Add a license", Priority: "P2", DependsOn: []string{greet.ID}})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	opt := Options{Runner: demoagent.Agent(), Report: report, Once: true, Name: "demo"}
	if err := Run(ctx, ctx, s, opt); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	t, err := s.Get(lic.ID)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if t.State != task.AwaitingInput {
		return fmt.Errorf("demo: %s is %s, expected it to wait for an answer", t.ID, t.State)
	}
	if _, err := notify.Answer(s, t.ID, []task.Answer{{Values: []string{demoagent.Answer}}}, "demo", nil); err != nil {
		return fmt.Errorf("demo: respond: %w", err)
	}
	if report != nil {
		report(Event{Kind: Answered, Task: t.ID, Title: t.Title, Question: t.Question, Summary: demoagent.Answer})
	}
	if err := Run(ctx, ctx, s, opt); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if t, err = s.Get(lic.ID); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if t.State != task.Closed {
		return fmt.Errorf("demo: %s ended %s: %s", t.ID, t.State, t.Summary)
	}
	return nil
}

// RemoveDemo removes the demo repository in dir and the worktrees bh
// made for it in its state dir, which would otherwise outlive it.
func RemoveDemo(dir string) error {
	if s, err := store.Find(dir); err == nil {
		if r, err := git.Open(s.Root); err == nil {
			os.RemoveAll(slots.WorktreeDir(s, r.CommonDir()))
		}
	}
	return os.RemoveAll(dir)
}
