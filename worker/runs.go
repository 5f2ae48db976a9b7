package worker

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

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
