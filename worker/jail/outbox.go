package jail

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

// StateDir is bh's folder in the user's state: $XDG_STATE_HOME/bh, else
// ~/.local/state/bh; "" when there is no home.
func StateDir() string {
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

// RepoKey names a repository's folders in bh's state dir.
func RepoKey(s *store.Store, commonDir string) string {
	sum := sha1.Sum([]byte(commonDir))
	return filepath.Base(s.Root) + "-" + hex.EncodeToString(sum[:4])
}

// OutboxDir is task id's outbox.
func OutboxDir(s *store.Store, commonDir, id string) string {
	return filepath.Join(OutboxesOf(s, commonDir), id)
}

// OutboxesOf is the folder of the repository's outboxes, one per task.
func OutboxesOf(s *store.Store, commonDir string) string {
	if state := StateDir(); state != "" {
		return filepath.Join(state, "outbox", RepoKey(s, commonDir))
	}
	return filepath.Join(commonDir, "bh", "outbox")
}

// Outbox is task id's outbox.
func (j *Jail) Outbox(id string) string { return OutboxDir(j.Store, j.CommonDir, id) }

// MakeOutbox makes task id's outbox, a folder of its own: its parents
// are bh's, out of the agent's reach.
func (j *Jail) MakeOutbox(id string) (string, error) {
	dir := j.Outbox(id)
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		os.Remove(dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("the run's outbox: %w", err)
	}
	return dir, nil
}

// TakeOutbox takes what the agent's run put in its outbox through bh's
// MCP server: the tasks it added (created here, linked to task id, since
// bh mcp cannot write the store from the sandbox) and the questions it
// asked. An outbox that cannot be read is the agent's doing: its run
// failed (runErr), whatever it reported.
func (j *Jail) TakeOutbox(id string) (qs []agent.Question, runErr error) {
	outbox := j.Outbox(id)
	added, aerr := mcp.TakeAdded(outbox)
	for _, a := range added {
		if _, err := j.Store.Create(&task.Task{Title: a.Title, Description: a.Description, Priority: a.Priority,
			Parent: id}); err != nil {
			j.Warnf("%s: add the task %q its agent recorded: %v", id, a.Title, err)
		}
	}
	qs, qerr := mcp.TakeAsked(outbox)
	for _, err := range []error{aerr, qerr} {
		var bad *mcp.OutboxError
		switch {
		case errors.As(err, &bad):
			return nil, &agent.RunError{Reason: bad.Error(), ExitCode: -1, Err: err}
		case err != nil:
			j.Warnf("%s: %v", id, err)
		}
	}
	return qs, nil
}

// bhPrivate are bh's folders no agent may read: its config in the user's
// home ($XDG_CONFIG_HOME/bh: the web token, the link key, the registry)
// and its state dir, as the worker sees them and as the agent's
// environment would name them.
func bhPrivate(getenv func(string) string, home string) []string {
	out := []string{config.UserConfigDir(), StateDir()}
	for _, xdg := range [][2]string{{"XDG_CONFIG_HOME", ".config"}, {"XDG_STATE_HOME", ".local/state"}} {
		if d := getenv(xdg[0]); d != "" {
			out = append(out, filepath.Join(d, "bh"))
		} else if home != "" {
			out = append(out, filepath.Join(home, xdg[1], "bh"))
		}
	}
	return out
}
