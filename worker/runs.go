package worker

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/repo"
)

// .bh/runs/<id>/ (git-ignored) holds a running task's baseline, so that a
// dead worker's partial work can be told from the user's, and one log per
// run with the agent's raw output.
func runsDir(s *task.Store, id string) string { return filepath.Join(s.Dir, "runs", id) }

func baselinePath(s *task.Store, id string) string {
	return filepath.Join(runsDir(s, id), "baseline.json")
}

func saveBaseline(s *task.Store, id string, b *repo.Baseline) error {
	data, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("save baseline: %w", err)
	}
	if err := os.MkdirAll(runsDir(s, id), 0o755); err != nil {
		return fmt.Errorf("save baseline: %w", err)
	}
	// Write-then-rename: a crash must not leave half a baseline.
	tmp := baselinePath(s, id) + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("save baseline: %w", err)
	}
	if err := os.Rename(tmp, baselinePath(s, id)); err != nil {
		return fmt.Errorf("save baseline: %w", err)
	}
	return nil
}

// loadBaseline returns nil, nil when the task has none.
func loadBaseline(s *task.Store, id string) (*repo.Baseline, error) {
	data, err := os.ReadFile(baselinePath(s, id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load baseline: %w", err)
	}
	var b repo.Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("load baseline %s: %w", baselinePath(s, id), err)
	}
	return &b, nil
}

func removeBaseline(s *task.Store, id string) { os.Remove(baselinePath(s, id)) }

// writeLog keeps the run's prompt and the agent's raw output. It returns
// the log's path relative to the repository, or "" if it could not write.
func (w *worker) writeLog(r *run, out *agent.Outcome, runErr error) string {
	var raw, stderr []byte
	var re *agent.RunError
	if errors.As(runErr, &re) {
		raw, stderr = re.Raw, re.Stderr
	} else if out != nil {
		raw, stderr = out.Raw, out.Stderr
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "task: %s\nsession: %s\nstarted: %s\nelapsed: %s\n", r.t.ID, r.session,
		r.started.UTC().Format(time.RFC3339), time.Since(r.started).Round(time.Millisecond))
	if runErr != nil {
		fmt.Fprintf(&b, "error: %v\n", runErr)
	}
	for _, part := range []struct {
		name string
		body []byte
	}{{"prompt", []byte(r.prompt)}, {"stdout", raw}, {"stderr", stderr}} {
		fmt.Fprintf(&b, "\n----- %s -----\n", part.name)
		b.Write(part.body)
	}
	name := r.started.UTC().Format("20060102T150405.000000000Z") + ".log"
	path := filepath.Join(runsDir(w.s, r.t.ID), name)
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil || os.WriteFile(path, b.Bytes(), 0o644) != nil {
		return ""
	}
	return filepath.ToSlash(filepath.Join(".bh", "runs", r.t.ID, name))
}

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

// newQuestionID is a short correlation id, unique within the task, that
// ties a question to its answer in the history and on the command line.
func newQuestionID(t *task.Task) string {
	for {
		id := []byte("q")
		for range 4 {
			n, _ := rand.Int(rand.Reader, big.NewInt(36))
			id = append(id, base36[n.Int64()])
		}
		if findQuestion(t, string(id)) == nil {
			return string(id)
		}
	}
}
