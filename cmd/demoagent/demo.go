// Package demoagent is bh demo's scripted agent: it completes one task and asks
// a question on the other, with no network and no real agent.
package demoagent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
)

// Answer is what the demo's human answers.
const Answer = "MIT"

// Agent is a scripted stand-in for a coding agent: it edits files in the
// working tree and answers like one.
func Agent() agent.Runner {
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
		case req.SessionID != sessions[req.TaskID] || !strings.Contains(req.Prompt, "Answer: "+Answer):
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
