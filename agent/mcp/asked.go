// Package mcp is bh's MCP server (bh mcp), which the worker hands to the
// agent for the length of a run: its permission prompts (Claude Code's
// AskUserQuestion among them) and its ask_human calls become the task's
// typed questions, and it can read the task store and add tasks.
//
// Questions asked during a run go to .bh/runs/<id>/asked.jsonl rather than
// into the task file, which the worker owns while the run lasts; the
// worker takes them when the run ends (TakeAsked).
package mcp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent/ask"
	"github.com/bh-tracker/bh/task/store"
	"github.com/gofrs/flock"
)

// MaxQuestionBytes bounds one question as recorded (its JSON line): the
// reader takes no longer line, so a longer question is refused to the
// agent when it asks, never acknowledged and then dropped.
const MaxQuestionBytes = 1 << 20

// tooLarge is the tool error a question over the limit gets: the agent
// can act on it by asking again, shorter.
func tooLarge(n int) error {
	return fmt.Errorf("question too large: %d bytes, limit %d; it was not put to the human. "+
		"Shorten it and ask again: a short question, a few options, and the details in a file "+
		"of the worktree that the question names", n, MaxQuestionBytes)
}

func askedPath(s *store.Store, id string) string {
	return filepath.Join(s.Dir, "runs", id, "asked.jsonl")
}

// record appends questions the agent asked during its run, all of them or,
// when one is too large, none.
func record(s *store.Store, id string, qs ...ask.Question) error {
	lines := make([][]byte, 0, len(qs))
	for _, q := range qs {
		b, err := json.Marshal(q)
		if err != nil {
			return fmt.Errorf("record the question: %w", err)
		}
		if len(b) > MaxQuestionBytes {
			return tooLarge(len(b))
		}
		lines = append(lines, append(b, '\n'))
	}
	path := askedPath(s, id)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	l := flock.New(path + ".lock")
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, b := range lines {
		if _, err := f.Write(b); err != nil {
			f.Close()
			return fmt.Errorf("record the question: %w", err)
		}
	}
	return f.Close()
}

// TakeAsked returns the questions asked during id's run and forgets them.
// A question asked again in the run is one question: the same permission
// request twice (the same denied command), whose answers could only agree.
func TakeAsked(s *store.Store, id string) ([]ask.Question, error) {
	path := askedPath(s, id)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []ask.Question
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, MaxQuestionBytes+1) // the line and its newline
	for sc.Scan() {
		var q ask.Question
		if json.Unmarshal(sc.Bytes(), &q) != nil || q.Question == "" || seen[sc.Text()] {
			continue
		}
		seen[sc.Text()] = true
		q.Question = ask.CapText(q.Question)
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the questions asked: %w", err)
	}
	return qs, os.Remove(path)
}
