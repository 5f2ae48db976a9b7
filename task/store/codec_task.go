package store

import (
	"time"

	"github.com/bh-tracker/bh/task"
)

// encodeTask and decodeTask write every field of Task in a fixed order.
// A field added to Task must be added here too, and cacheLayout changed:
// TestCacheCodecCoversTask and TestCacheLayout fail until both are done.

// cacheLayout names the shape of Task that the codec below writes. Caches
// written for another shape are ignored and rebuilt.
const cacheLayout uint64 = 0x5ba0226e02634fa4

func encodeTask(e *enc, t *task.Task) {
	e.str(t.ID)
	e.str(t.Title)
	e.str(t.Description)
	e.str(string(t.Type))
	e.str(string(t.Priority))
	e.str(string(t.Size))
	e.str(string(t.State))
	e.str(t.Parent)
	e.strs(t.DependsOn)
	e.strs(t.Labels)
	e.str(t.Source)
	e.str(t.Question)
	e.str(t.QuestionContext)
	e.str(t.HumanResponse)
	e.timePtr(t.HumanRespondedAt)
	e.count(len(t.Questions), t.Questions == nil)
	for i := range t.Questions {
		encodeQuestion(e, &t.Questions[i])
	}
	e.str(t.SessionID)
	e.str(t.Agent)
	e.bool(t.AgentSettings != nil)
	if a := t.AgentSettings; a != nil {
		for _, v := range []string{a.Agent, a.Model, a.Timeout, a.PermissionMode, a.Sandbox, a.System, a.Dir} {
			e.str(v)
		}
		e.strs(a.Checks)
	}
	e.str(t.Summary)
	e.str(t.Details)
	e.strs(t.Issues)
	e.bool(t.Lease != nil)
	if l := t.Lease; l != nil {
		e.str(l.Worker)
		e.int(int64(l.PID))
		e.str(l.Host)
		e.time(l.Heartbeat)
		e.time(l.StartedAt)
	}
	e.str(t.Gate)
	e.bool(t.Human != nil)
	if t.Human != nil {
		e.bool(*t.Human)
	}
	e.str(t.HumanTimeout)
	e.str(t.OnTimeout)
	e.bool(t.NeedsReview)
	e.str(t.Target)
	e.str(t.Land)
	e.strs(t.Checks)
	e.str(t.Sandbox)
	e.float(t.Budget)
	e.str(t.Every)
	e.timePtr(t.NotBefore)
	e.str(t.Follows)
	e.int(int64(t.Attempts))
	e.strs(t.Agents)
	e.int(int64(t.Attempt))
	e.bool(t.Plan != nil)
	if t.Plan != nil {
		e.bool(*t.Plan)
	}
	e.time(t.CreatedAt)
	e.time(t.UpdatedAt)
	// The last question asked goes twice: alone, for ListBrief, which stops
	// there, and in the history.
	ask, ok := t.LastAsked()
	e.bool(ok)
	if ok {
		encodeEvent(e, &ask)
	}
	e.count(len(t.History), t.History == nil)
	for i := range t.History {
		encodeEvent(e, &t.History[i])
	}
}

func encodeQuestion(e *enc, q *task.Question) {
	e.str(q.ID)
	e.str(q.Question)
	e.str(q.Header)
	e.str(q.Type)
	e.count(len(q.Options), q.Options == nil)
	for _, o := range q.Options {
		e.str(o.Label)
		e.str(o.Description)
	}
	e.bool(q.MultiSelect)
	e.str(q.Default)
	e.str(q.Context)
	e.str(q.Tool)
	e.str(q.Status)
	e.strs(q.Answer)
	e.str(q.Comment)
	encodeComments(e, q.Comments)
	e.bool(q.Gate)
	e.bool(q.Planning)
	e.str(q.Plan)
	e.time(q.AskedAt)
	e.timePtr(q.AnsweredAt)
	e.timePtr(q.ExpiresAt)
}

func encodeComments(e *enc, cs []task.LineComment) {
	e.count(len(cs), cs == nil)
	for _, c := range cs {
		e.str(c.Path)
		e.int(int64(c.Line))
		e.str(c.Text)
	}
}

func encodeEvent(e *enc, ev *task.Event) {
	e.time(ev.At)
	e.str(ev.Kind)
	e.str(string(ev.From))
	e.str(string(ev.To))
	e.str(ev.By)
	e.str(ev.QuestionID)
	e.str(ev.Text)
	encodeComments(e, ev.Comments)
	e.str(ev.Context)
	e.str(ev.Status)
	e.str(ev.Session)
	e.str(ev.Commit)
	e.str(ev.Stats)
	e.str(ev.Command)
	e.int(int64(ev.ExitCode))
	e.int(int64(ev.Took))
	e.str(ev.Output)
	e.int(int64(ev.Round))
	e.str(ev.Sandbox)
	e.float(ev.CostUSD)
	e.int(ev.Tokens)
}

// decodeTask fills t from one record and reports whether it was whole.
// A brief task's History holds only the last question asked, if any.
func decodeTask(d *dec, t *task.Task, brief bool) bool {
	t.ID = d.str()
	t.Title = d.str()
	t.Description = d.str()
	t.Type = task.Type(d.str())
	t.Priority = task.Priority(d.str())
	t.Size = task.Size(d.str())
	t.State = task.State(d.str())
	t.Parent = d.str()
	t.DependsOn = d.strs()
	t.Labels = d.strs()
	t.Source = d.str()
	t.Question = d.str()
	t.QuestionContext = d.str()
	t.HumanResponse = d.str()
	t.HumanRespondedAt = d.timePtr()
	if n, isNil := d.count(); !isNil {
		t.Questions = make([]task.Question, n)
		for i := range t.Questions {
			decodeQuestion(d, &t.Questions[i])
		}
	}
	t.SessionID = d.str()
	t.Agent = d.str()
	if d.bool() {
		t.AgentSettings = &task.AgentSettings{Agent: d.str(), Model: d.str(), Timeout: d.str(), PermissionMode: d.str(),
			Sandbox: d.str(), System: d.str(), Dir: d.str()}
		t.AgentSettings.Checks = d.strs()
	}
	t.Summary = d.str()
	t.Details = d.str()
	t.Issues = d.strs()
	if d.bool() {
		t.Lease = &task.Lease{Worker: d.str(), PID: int(d.int()), Host: d.str()}
		t.Lease.Heartbeat = d.time()
		t.Lease.StartedAt = d.time()
	}
	t.Gate = d.str()
	if d.bool() {
		h := d.bool()
		t.Human = &h
	}
	t.HumanTimeout = d.str()
	t.OnTimeout = d.str()
	t.NeedsReview = d.bool()
	t.Target = d.str()
	t.Land = d.str()
	t.Checks = d.strs()
	t.Sandbox = d.str()
	t.Budget = d.float()
	t.Every = d.str()
	t.NotBefore = d.timePtr()
	t.Follows = d.str()
	t.Attempts = int(d.int())
	t.Agents = d.strs()
	t.Attempt = int(d.int())
	if d.bool() {
		p := d.bool()
		t.Plan = &p
	}
	t.CreatedAt = d.time()
	t.UpdatedAt = d.time()
	var ask task.Event
	asked := d.bool()
	if asked {
		decodeEvent(d, &ask)
	}
	if brief {
		var h []task.Event
		if asked {
			h = []task.Event{ask}
		}
		t.Trim(h)
		return !d.bad
	}
	if n, isNil := d.count(); !isNil {
		t.History = make([]task.Event, n)
		for i := range t.History {
			decodeEvent(d, &t.History[i])
		}
	}
	return !d.bad && d.i == len(d.s)
}

func decodeQuestion(d *dec, q *task.Question) {
	q.ID = d.str()
	q.Question = d.str()
	q.Header = d.str()
	q.Type = d.str()
	if n, isNil := d.count(); !isNil {
		q.Options = make([]task.Option, n)
		for i := range q.Options {
			q.Options[i] = task.Option{Label: d.str(), Description: d.str()}
		}
	}
	q.MultiSelect = d.bool()
	q.Default = d.str()
	q.Context = d.str()
	q.Tool = d.str()
	q.Status = d.str()
	q.Answer = d.strs()
	q.Comment = d.str()
	q.Comments = decodeComments(d)
	q.Gate = d.bool()
	q.Planning = d.bool()
	q.Plan = d.str()
	q.AskedAt = d.time()
	q.AnsweredAt = d.timePtr()
	q.ExpiresAt = d.timePtr()
}

func decodeEvent(d *dec, ev *task.Event) {
	ev.At = d.time()
	ev.Kind = d.str()
	ev.From = task.State(d.str())
	ev.To = task.State(d.str())
	ev.By = d.str()
	ev.QuestionID = d.str()
	ev.Text = d.str()
	ev.Comments = decodeComments(d)
	ev.Context = d.str()
	ev.Status = d.str()
	ev.Session = d.str()
	ev.Commit = d.str()
	ev.Stats = d.str()
	ev.Command = d.str()
	ev.ExitCode = int(d.int())
	ev.Took = time.Duration(d.int())
	ev.Output = d.str()
	ev.Round = int(d.int())
	ev.Sandbox = d.str()
	ev.CostUSD = d.float()
	ev.Tokens = d.int()
}

func decodeComments(d *dec) []task.LineComment {
	n, isNil := d.count()
	if isNil {
		return nil
	}
	cs := make([]task.LineComment, n)
	for i := range cs {
		cs[i] = task.LineComment{Path: d.str(), Line: int(d.int()), Text: d.str()}
	}
	return cs
}
