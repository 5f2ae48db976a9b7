package task

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Entry is one event of the audit trail, tagged with its task.
type Entry struct {
	TaskID string `json:"taskId"`
	Title  string `json:"title"`
	Event
	// Seq is the event's index in its task's history, so a follower can
	// tell which events it has already shown.
	Seq int `json:"seq"`
}

// Timeline merges the histories of tasks into one list ordered by time.
// Events at the same second keep their task's order.
func Timeline(tasks []*Task, since time.Time) []Entry {
	var out []Entry
	for _, t := range tasks {
		for i, e := range t.History {
			if !since.IsZero() && e.At.Before(since) {
				continue
			}
			out = append(out, Entry{TaskID: t.ID, Title: t.Title, Event: e, Seq: i})
		}
	}
	slices.SortStableFunc(out, func(a, b Entry) int {
		return cmp.Or(a.At.Compare(b.At), strings.Compare(a.TaskID, b.TaskID), cmp.Compare(a.Seq, b.Seq))
	})
	return out
}
