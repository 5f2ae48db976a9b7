package ending

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/plan"
)

// planned is the ending of a planning run (plan: true) that answered: its
// questions are asked as any (marked as asked in planning), and a
// completion is a plan that waits on a human's approval instead of
// landing. A planning run that changed files (f.Wrote) is refused: its
// writes are discarded and the task fails, saying which.
func planned(f Facts) Ending {
	if len(f.Wrote) > 0 {
		note := fmt.Sprintf("refused: the planning run changed %s, and a planning run must change no file; "+
			"its changes are discarded", strings.Join(f.Wrote, ", "))
		return Ending{Outcome: Failed, Fate: DiscardWork, State: task.Failed, Status: string(f.Result.Status),
			Session: f.Session, Result: f.Result, Summary: note, Note: note, Notify: task.EventTaskFailed, Err: note}
	}
	if f.Result.Status != agent.StatusCompleted {
		e := answered(f)
		for i := range e.Ask {
			e.Ask[i].Planning = true
		}
		return e
	}
	text := plan.Text(f.Result.Summary, f.Result.Details)
	return Ending{Outcome: NeedsInput, Fate: KeepWork, State: task.AwaitingInput, Notify: task.EventInputRequested,
		Session: f.Session, Result: f.Result, Status: string(f.Result.Status), Note: "planned: the plan waits for approval",
		Context: text, Ask: []task.Question{{Question: PlanQuestion, Header: "Plan", Type: task.ApprovalQuestion,
			Plan: text, Planning: true}}}
}

// PlanQuestion asks a human to approve a planning run's plan.
const PlanQuestion = "Approve this plan? Yes carries it out (edit it first to change it); no sends it back with your feedback."
