package budget

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/outage"
)

// Today is what tasks' runs that finished since midnight, in now's
// location, cost in all, in USD.
func Today(tasks []*task.Task, now time.Time) float64 {
	y, m, d := now.Date()
	midnight := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	sum := 0.0
	for _, t := range tasks {
		for _, e := range t.History {
			if e.Kind == task.EventRunFinished && !e.At.Before(midnight) {
				sum += e.CostUSD
			}
		}
	}
	return sum
}

// DayPause is the pause of new runs once the runs of s's tasks cost more
// as much as budget.perDay or more today (local time, at now): until the next local
// midnight. nil when there is no such bound or it is not crossed.
func DayPause(s *store.Store, now time.Time) (*outage.Pause, error) {
	perDay := s.Config.Budget.PerDay
	if perDay <= 0 {
		return nil, nil
	}
	tasks, _, err := s.List()
	if err != nil {
		return nil, err
	}
	now = now.Local()
	spent := Today(tasks, now)
	if spent < perDay {
		return nil, nil
	}
	y, m, d := now.Date()
	return &outage.Pause{Until: time.Date(y, m, d+1, 0, 0, 0, 0, now.Location()).UTC(),
		Reason: fmt.Sprintf("the day's budget: %s of %s spent", ending.USD(spent), ending.USD(perDay))}, nil
}
