package worker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
)

// DemoAnswer is what the demo's human answers.
const DemoAnswer = "MIT"

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
	opt := Options{Runner: demoAgent(), Report: report, Once: true, Name: "demo"}
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
	if _, err := notify.Answer(s, t.ID, []task.Answer{{Values: []string{DemoAnswer}}}, "demo", nil); err != nil {
		return fmt.Errorf("demo: respond: %w", err)
	}
	if report != nil {
		report(Event{Kind: Answered, Task: t.ID, Title: t.Title, Question: t.Question, Summary: DemoAnswer})
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

// demoAgent is a scripted stand-in for a coding agent: it edits files in
// the working tree and answers like one.
func demoAgent() agent.Runner {
	sessions := map[string]string{} // task -> session, to show resume keeps it
	return agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		select { // long enough to watch, short enough to wait for
		case <-time.After(150 * time.Millisecond):
		case <-ctx.Done():
			return nil, &agent.RunError{Reason: "stopped", ExitCode: -1, Err: ctx.Err()}
		}
		write := func(name, body string) error {
			return os.WriteFile(filepath.Join(req.Dir, name), []byte(body), 0o755)
		}
		res := agent.Result{Status: agent.StatusCompleted}
		var err error
		switch {
		case !strings.Contains(req.Prompt, "Add a license"):
			err = write("hello.sh", "#!/bin/sh\necho 'Hello from bh!'\n")
			res.Summary = "Added hello.sh, which prints a greeting."
		case !req.Resume:
			sessions[req.TaskID] = req.SessionID
			err = write("NOTICE", "Copyright the bh demo authors.\n")
			res = agent.Result{Status: agent.StatusNeedsInput, Summary: "Wrote NOTICE; the license is a product decision.",
				Question:        "Which license should the project use: MIT or Apache-2.0?",
				QuestionContext: "No license file exists yet; NOTICE is drafted.",
				Questions: []agent.Question{{Question: "Which license should the project use: MIT or Apache-2.0?",
					Header: "License", Type: agent.QuestionChoice,
					Options: []agent.Option{{Label: "MIT", Description: "short and permissive"},
						{Label: "Apache-2.0", Description: "permissive, with a patent grant"}}}}}
		case req.SessionID != sessions[req.TaskID] || !strings.Contains(req.Prompt, "Answer: "+DemoAnswer):
			res = agent.Result{Status: agent.StatusFailed, Summary: "resumed without the session or the answer"}
		default:
			err = write("LICENSE", "MIT License\n\nPermission is hereby granted, free of charge, ...\n")
			res.Summary = "Added the MIT license, as answered."
		}
		if err != nil {
			return nil, &agent.RunError{Reason: err.Error(), ExitCode: -1, Err: err}
		}
		return &agent.Outcome{Result: res, SessionID: req.SessionID}, nil
	})
}

// RemoveDemo removes the demo repository in dir and the worktrees bh
// made for it in its state dir, which would otherwise outlive it.
func RemoveDemo(dir string) error {
	if s, err := store.Find(dir); err == nil {
		if r, err := git.Open(s.Root); err == nil {
			os.RemoveAll(WorktreeDir(s, r.CommonDir()))
		}
	}
	return os.RemoveAll(dir)
}
