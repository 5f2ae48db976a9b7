package ending

import (
	"fmt"

	"github.com/bh-tracker/bh/task"
)

// budgetTitle heads the question a task stopped at its budget asks.
const budgetTitle = "Budget"

// IsBudgetQuestion: q asks whether a task stopped at its budget goes on.
func IsBudgetQuestion(q *task.Question) bool {
	return q.Header == budgetTitle && q.Kind() == task.ApprovalQuestion
}

// USD is an amount as the budget's questions and bh show write it.
func USD(v float64) string { return fmt.Sprintf("$%.2f", v) }

// budget is the ending at a task's budget: the run stopped there, its
// session and work kept, waits for a human's yes (the same session goes on
// with as much again; see budget.Limit) or no (it fails, its work kept).
func budget(f Facts) Ending {
	if f.What == HumanBudget {
		note := "stopped at its budget: answered no by " + f.By
		return Ending{Outcome: Stopped, Fate: KeepWork, State: task.Failed, Session: f.Session, Note: note, Text: note,
			Summary: note, Notify: task.EventTaskFailed,
			Next: "the worker fails it, its work kept (raise its budget: and bh reopen it to go on), without running the agent again"}
	}
	said := fmt.Sprintf("This task has spent %s of its %s budget.", USD(f.Spent), USD(f.Budget))
	return Ending{Outcome: OverBudget, Fate: KeepWork, State: task.AwaitingInput, Status: string(Stopped),
		Session: f.Session, Note: "stopped at its budget", Text: said, Summary: said, Notify: task.EventBudgetCrossed,
		Ask: []task.Question{{Header: budgetTitle, Type: task.ApprovalQuestion,
			Question: fmt.Sprintf("%s Continue with %s more?", said, USD(f.Budget))}},
		Crossed: &task.Event{Kind: task.EventBudgetCrossed, CostUSD: f.Spent,
			Text: fmt.Sprintf("spent %s of its %s budget", USD(f.Spent), USD(f.Budget))}}
}
