package task

import "slices"

// GrantedTools are the tool rules a human allowed in answer to the agent's
// permission prompts.
func (t *Task) GrantedTools() []string {
	var out []string
	for _, q := range t.Questions {
		if q.Tool != "" && q.Status == QuestionAnswered && len(q.Answer) > 0 && q.Answer[0] == "yes" {
			out = append(out, q.Tool)
		}
	}
	return out
}

// SessionRan reports whether the task's session was handed to an agent
// before, so that a run must resume it rather than create it. A task tried
// side by side has one once its pick went to its pull request: the picked
// attempt's, which ran (worker/attempts).
func (t *Task) SessionRan() bool {
	return t.SessionID != "" && (t.Tried() || slices.ContainsFunc(t.History, func(e Event) bool {
		return (e.Kind == EventRunStarted || e.Kind == EventRunFinished) && e.Session == t.SessionID
	}))
}
