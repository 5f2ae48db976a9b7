package worker

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/mcp"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// What must come out of a run besides the agent's result and its work
// (the questions bh mcp records, inside the sandbox) goes through the
// run's outbox: one folder under bh's state dir, the only one of bh's
// that the sandbox lets the agent write. Nothing bh keeps for itself
// (task files, journals, locks, caches, logs) is there, and bh reads
// what it finds there as hostile input (mcp.TakeAsked).

// bhStateDir is bh's folder in the user's state: $XDG_STATE_HOME/bh, else
// ~/.local/state/bh; "" when there is no home.
func bhStateDir() string {
	state := os.Getenv("XDG_STATE_HOME")
	if state == "" {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		state = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(state, "bh")
}

// repoKey names a repository's folders in bh's state dir.
func repoKey(s *store.Store, commonDir string) string {
	sum := sha1.Sum([]byte(commonDir))
	return filepath.Base(s.Root) + "-" + hex.EncodeToString(sum[:4])
}

// outboxDir is task id's outbox.
func outboxDir(s *store.Store, commonDir, id string) string {
	return filepath.Join(outboxesOf(s, commonDir), id)
}

// outboxesOf is the folder of the repository's outboxes, one per task.
func outboxesOf(s *store.Store, commonDir string) string {
	if state := bhStateDir(); state != "" {
		return filepath.Join(state, "outbox", repoKey(s, commonDir))
	}
	return filepath.Join(commonDir, "bh", "outbox")
}

func (w *worker) outbox(id string) string { return outboxDir(w.s, w.repo.CommonDir(), id) }

// makeOutbox makes task id's outbox, a folder of its own: its parents
// are bh's, out of the agent's reach.
func (w *worker) makeOutbox(id string) (string, error) {
	dir := w.outbox(id)
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		os.Remove(dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("the run's outbox: %w", err)
	}
	return dir, nil
}

// takeOutbox takes what the agent's run put in its outbox through bh's
// MCP server: the tasks it added (created here, linked to task id, since
// bh mcp cannot write the store from the sandbox) and the questions it
// asked. An outbox that cannot be read is the agent's doing: its run
// failed (runErr), whatever it reported.
func (w *worker) takeOutbox(id string) (qs []agent.Question, runErr error) {
	outbox := w.outbox(id)
	added, aerr := mcp.TakeAdded(outbox)
	for _, a := range added {
		if _, err := w.s.Create(&task.Task{Title: a.Title, Description: a.Description, Priority: a.Priority,
			Parent: id}); err != nil {
			w.warnf("%s: add the task %q its agent recorded: %v", id, a.Title, err)
		}
	}
	qs, qerr := mcp.TakeAsked(outbox)
	for _, err := range []error{aerr, qerr} {
		var bad *mcp.OutboxError
		switch {
		case errors.As(err, &bad):
			return nil, &agent.RunError{Reason: bad.Error(), ExitCode: -1, Err: err}
		case err != nil:
			w.warnf("%s: %v", id, err)
		}
	}
	return qs, nil
}

// bhPrivate are bh's folders no agent may read: its config in the user's
// home ($XDG_CONFIG_HOME/bh: the web token, the link key, the registry)
// and its state dir, as the worker sees them and as the agent's
// environment would name them.
func bhPrivate(getenv func(string) string, home string) []string {
	out := []string{config.UserConfigDir(), bhStateDir()}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		out = append(out, filepath.Join(d, "bh"))
	} else if home != "" {
		out = append(out, filepath.Join(home, ".config", "bh"))
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		out = append(out, filepath.Join(d, "bh"))
	} else if home != "" {
		out = append(out, filepath.Join(home, ".local", "state", "bh"))
	}
	return out
}
