package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// VersionTimeout is how long claude --version may take in Check.
const VersionTimeout = 10 * time.Second

// CheckError is an agent that cannot run here at all, found before any
// task is claimed. Hint tells the user what to do about it.
type CheckError struct {
	Reason string
	Advice string
	Err    error // exec.ErrNotFound, or why --version failed
}

func (e *CheckError) Error() string { return e.Reason }
func (e *CheckError) Unwrap() error { return e.Err }

// Hint is the advice printed under the error, as bh's other errors do.
func (e *CheckError) Hint() string { return e.Advice }

// Check makes sure the agent argv0 can run: it must be found (on PATH, or
// as a path), and when it is Claude Code or Codex (named claude or codex)
// its --version must answer within VersionTimeout with a release not known
// to be broken (Tested.Broken). It returns the first line of that answer,
// or "" for other agents.
func Check(ctx context.Context, argv0 string) (version string, err error) {
	switch filepath.Base(argv0) {
	case "claude":
		return checkVersion(ctx, argv0, VersionTimeout, ClaudeTested)
	case "codex":
		return checkVersion(ctx, argv0, VersionTimeout, CodexTested)
	}
	return "", checkCommand(argv0)
}

// Preflight checks that claude is installed and answers; see Check.
func (c *Claude) Preflight(ctx context.Context) (string, error) {
	return checkVersion(ctx, c.cfg.Binary, VersionTimeout, ClaudeTested)
}

// Preflight checks that the program is installed; see Check.
func (c *Command) Preflight(ctx context.Context) (string, error) {
	if len(c.cfg.Argv) == 0 {
		return "", &CheckError{Reason: "agent command is not configured",
			Advice: "set agent.command in .bh/config.yaml"}
	}
	return "", checkCommand(c.cfg.Argv[0])
}

func checkCommand(argv0 string) error {
	if _, err := exec.LookPath(argv0); err != nil {
		return &CheckError{Reason: "agent command " + missing(argv0, err, ""),
			Advice: "check agent.command in .bh/config.yaml", Err: err}
	}
	return nil
}

// missing says why exec.LookPath did not find argv0, "where" it looked
// when argv0 is a bare name.
func missing(argv0 string, err error, where string) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return argv0 + " is not an executable file"
	case strings.ContainsRune(argv0, filepath.Separator):
		return argv0 + " not found"
	}
	return argv0 + " not found" + where
}

// Preflight checks that codex is installed and answers codex --version.
func (c *Codex) Preflight(ctx context.Context) (string, error) {
	return checkVersion(ctx, c.cfg.Binary, VersionTimeout, CodexTested)
}

// Tested is what bh knows of claude's releases.
func (c *Claude) Tested() Tested { return ClaudeTested }

// Tested is what bh knows of codex's releases.
func (c *Codex) Tested() Tested { return CodexTested }

// checkVersion makes sure bin, the CLI tested describes, is found and
// answers --version within timeout with a release tested does not refuse.
func checkVersion(ctx context.Context, bin string, timeout time.Duration, tested Tested) (string, error) {
	install := "install it with npm install -g " + tested.Package
	path, err := exec.LookPath(bin)
	if err != nil {
		return "", &CheckError{Reason: missing(bin, err, " on PATH"), Err: err,
			Advice: install + ", or set agent.binary in .bh/config.yaml"}
	}
	res, err := proc{argv: []string{path, "--version"}, timeout: timeout, grace: time.Second}.run(ctx)
	reason := ""
	switch {
	case err != nil && ctx.Err() != nil:
		return "", err
	case errors.Is(err, context.DeadlineExceeded):
		reason = fmt.Sprintf("%s --version did not answer within %s", bin, timeout)
	case err != nil:
		reason = fmt.Sprintf("%s --version failed: %v", bin, err)
	case res.exitCode != 0:
		reason = fmt.Sprintf("%s --version exited with status %d", bin, res.exitCode)
		if tail := res.tail(3); tail != "" {
			reason += ": " + tail
		}
	}
	if reason != "" {
		return "", &CheckError{Reason: reason, Err: err,
			Advice: "check that " + bin + " runs from your shell; if not, re" + install}
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(res.stdout)), "\n")
	first = strings.TrimSpace(first)
	return first, tested.refuse(first)
}

// Program is the path or name claude is started by.
func (c *Claude) Program() string { return c.cfg.Binary }

// Program is the path or name codex is started by.
func (c *Codex) Program() string { return c.cfg.Binary }
