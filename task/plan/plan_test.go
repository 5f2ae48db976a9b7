package plan

import (
	"testing"

	"github.com/bh-tracker/bh/task"
)

// A task's phase and plan, read from its questions and history alone.
func TestPhases(t *testing.T) {
	yes, no := true, false
	asked := task.Question{ID: "q1", Plan: "1. do it", Status: task.QuestionPending}
	sentBack := asked
	sentBack.Status, sentBack.Answer, sentBack.Comment = task.QuestionAnswered, []string{"no"}, "smaller"
	approvedAs := func(comment string) task.Question {
		q := asked
		q.Status, q.Answer, q.Comment = task.QuestionAnswered, []string{"yes"}, comment
		return q
	}
	received := []task.Event{{Kind: task.EventRunStarted}, {Kind: task.EventInputReceived, QuestionID: "q1"}}
	ran := append(received, task.Event{Kind: task.EventRunStarted})
	for _, c := range []struct {
		name          string
		t             task.Task
		def           bool
		planning      bool
		fresh         bool
		plan, title   string
		edited, isSet bool
	}{
		{name: "no plan", t: task.Task{}},
		{name: "the config's default", t: task.Task{}, def: true, planning: true},
		{name: "its own plan: false over the default", t: task.Task{Plan: &no}, def: true},
		{name: "asked", t: task.Task{Plan: &yes, Questions: []task.Question{asked}}, planning: true,
			title: "plan (waiting for approval)", plan: "1. do it"},
		{name: "sent back", t: task.Task{Plan: &yes, Questions: []task.Question{sentBack}, History: received}, planning: true,
			title: "plan (sent back)", plan: "1. do it"},
		{name: "approved", t: task.Task{Plan: &yes, Questions: []task.Question{approvedAs("")}, History: received},
			fresh: true, title: "plan (approved)", plan: "1. do it", isSet: true},
		{name: "approved with the same text", t: task.Task{Plan: &yes, Questions: []task.Question{approvedAs(" 1. do it\n")}, History: received},
			fresh: true, title: "plan (approved)", plan: "1. do it", isSet: true},
		{name: "approved as edited, carried out", t: task.Task{Plan: &yes, Questions: []task.Question{approvedAs("1. do less")}, History: ran},
			title: "plan (approved as edited)", plan: "1. do less", edited: true, isSet: true},
	} {
		if got := Planning(&c.t, c.def); got != c.planning {
			t.Errorf("%s: Planning = %v", c.name, got)
		}
		if got := Fresh(&c.t); got != c.fresh {
			t.Errorf("%s: Fresh = %v", c.name, got)
		}
		if title, text := Shown(&c.t); title != c.title || text != c.plan {
			t.Errorf("%s: Shown = %q, %q", c.name, title, text)
		}
		if text, edited, ok := Approved(&c.t); ok != c.isSet || ok && (text != c.plan || edited != c.edited) {
			t.Errorf("%s: Approved = %q, %v, %v", c.name, text, edited, ok)
		}
	}
}
