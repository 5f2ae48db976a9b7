package worker

import (
	"errors"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/taskprompt"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/google/uuid"
)

// sessionFiler is an agent whose sessions live in files bh can copy.
type sessionFiler interface {
	SessionFile(req agent.Request) string
}

// sessionCopy is bh's copy of a session's transcript, kept with the task's
// local state (never committed): Claude Code removes old sessions, and
// another HOME has none.
func sessionCopy(s *store.Store, id, session string) string {
	return store.RunDir(s, id, "sessions", session+".jsonl")
}

// sessionFile is where runner keeps req's session transcript; "" when it
// keeps none in a file bh knows, or req has no session yet.
func sessionFile(runner agent.Runner, req agent.Request) string {
	if sf, ok := runner.(sessionFiler); ok && req.SessionID != "" {
		return sf.SessionFile(req)
	}
	return ""
}

// keepSession copies the session's transcript after a run.
func (w *worker) keepSession(r *run, req agent.Request) {
	sf, ok := r.runner.(sessionFiler)
	if c := w.s.Config.CaptureTranscript; !ok || r.session == "" || c != nil && !*c {
		return
	}
	req.SessionID = r.session
	w.copySession(r.t.ID, sf.SessionFile(req), r.session)
}

// copySession copies the (hostile) transcript at from to task id's copy
// of session; a missing one is no trouble.
func (w *worker) copySession(id, from, session string) {
	_, err := jail.OwnRunDir(w.s, id, "sessions")
	if err == nil {
		err = jail.CopyUntrusted(from, sessionCopy(w.s, id, session))
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) { // a hostile one among them (*untrusted.Error)
		w.warnf("%s: the session's transcript is not copied: %v", id, err)
	}
}

// restoreSession makes sure the agent has req's session to resume: its
// own file, or else bh's copy put back in its place. false: neither exists.
func restoreSession(s *store.Store, runner agent.Runner, id string, req agent.Request) bool {
	sf, ok := runner.(sessionFiler)
	if !ok {
		return true // sessions the agent keeps its own way: its resume tells
	}
	path := sf.SessionFile(req)
	if _, err := os.Stat(path); err == nil {
		return true
	}
	return jail.CopyUntrusted(sessionCopy(s, id, req.SessionID), path) == nil
}

// freshSession replaces a session that cannot be resumed: a new one, whose
// prompt carries the task, every question and answer so far and the work
// in the worktree, and a history record of the loss.
func (w *worker) freshSession(r *run, lost string) error {
	t, err := w.s.Update(r.t.ID, func(t *task.Task) error {
		if !w.owns(t) {
			return errNotOurs
		}
		t.SessionID = uuid.NewString()
		t.Record(w.now(), task.Event{Kind: task.EventSessionLost, By: w.opt.Name, Session: lost,
			Text: "the agent's session " + lost + " could not be restored; a fresh session " + t.SessionID +
				" starts with the task, its questions and answers, and the work so far"})
		return nil
	})
	if err != nil {
		return err
	}
	r.t = t
	prompt, err := taskprompt.Prompt(w.s, t, false)
	if err != nil {
		return err
	}
	if d := taskprompt.Data(w.s, t); len(d.Rounds) > 0 || d.Feedback != "" {
		more, err := taskprompt.Prompt(w.s, t, true)
		if err != nil {
			return err
		}
		prompt += "\n" + more
	}
	if stat := w.diffStat(r); stat != "" {
		prompt += fmt.Sprintf("\nYour earlier session was lost. The work you had done is still in your worktree:\n\n%s", stat)
	}
	r.prompt = prompt
	return nil
}
