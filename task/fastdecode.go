package task

import (
	"strconv"
	"strings"
	"time"
)

// decodeFast is Decode for a file in the subset parseYAML reads, with every
// key one of bh's and every value valid. ok is false for anything else, and
// Decode then reads the file with yaml.v3, which gives the same task or the
// error with its line. A key added to Task and not here is only slower:
// TestDecodeFastCoversTask says so.
func decodeFast(b []byte, id string) (*Task, bool) {
	root, done, ok := parseYAML(string(b))
	defer done()
	if !ok {
		return nil, false
	}
	t := &Task{}
	ok = eachKey(root, func(k string, v *ynode) bool {
		switch k {
		case "dependsOn":
			return strList(v, &t.DependsOn)
		case "labels":
			return strList(v, &t.Labels)
		case "issues":
			return strList(v, &t.Issues)
		case "checks":
			return strList(v, &t.Checks)
		case "humanRespondedAt":
			return timePtr(v, &t.HumanRespondedAt)
		case "needsReview":
			return boolean(v, &t.NeedsReview)
		case "human":
			t.Human = new(bool)
			return boolean(v, t.Human)
		case "createdAt":
			return timeVal(v, &t.CreatedAt)
		case "updatedAt":
			return timeVal(v, &t.UpdatedAt)
		case "agentSettings":
			a := &AgentSettings{}
			t.AgentSettings = a
			fields := map[string]*string{"agent": &a.Agent, "model": &a.Model, "timeout": &a.Timeout,
				"permissionMode": &a.PermissionMode, "sandbox": &a.Sandbox, "system": &a.System, "dir": &a.Dir}
			return eachKey(*v, func(k string, v *ynode) bool {
				if k == "checks" {
					return strList(v, &a.Checks)
				}
				p := fields[k]
				return p != nil && str(v, p)
			})
		case "lease":
			t.Lease = &Lease{}
			return fastLease(v, t.Lease)
		case "questions":
			return list(v, &t.Questions, fastQuestion)
		case "history":
			return list(v, &t.History, fastEvent)
		}
		p := taskString(t, k)
		return p != nil && str(v, p)
	})
	if !ok {
		return nil, false
	}
	if _, msg := t.checkID(id); msg != "" {
		return nil, false
	}
	if _, _, err := t.normalize(); err != nil {
		return nil, false
	}
	return t, true
}

// taskString is the string field of t under key k, or nil.
func taskString(t *Task, k string) *string {
	switch k {
	case "id":
		return &t.ID
	case "title":
		return &t.Title
	case "description":
		return &t.Description
	case "type":
		return (*string)(&t.Type)
	case "priority":
		return (*string)(&t.Priority)
	case "size":
		return (*string)(&t.Size)
	case "state":
		return (*string)(&t.State)
	case "parent":
		return &t.Parent
	case "question":
		return &t.Question
	case "questionContext":
		return &t.QuestionContext
	case "humanResponse":
		return &t.HumanResponse
	case "sessionId":
		return &t.SessionID
	case "agent":
		return &t.Agent
	case "summary":
		return &t.Summary
	case "details":
		return &t.Details
	case "gate":
		return &t.Gate
	case "humanTimeout":
		return &t.HumanTimeout
	case "onTimeout":
		return &t.OnTimeout
	case "target":
		return &t.Target
	case "land":
		return &t.Land
	case "sandbox":
		return &t.Sandbox
	}
	return nil
}

// integer reads a plain decimal integer, written as bh writes it.
func integer(v *ynode, p *int) bool {
	n, err := strconv.Atoi(v.val)
	*p = n
	return v.plain && err == nil && v.val == strconv.Itoa(n)
}

func fastLease(v *ynode, l *Lease) bool {
	return eachKey(*v, func(k string, v *ynode) bool {
		switch k {
		case "pid":
			return integer(v, &l.PID)
		case "heartbeat":
			return timeVal(v, &l.Heartbeat)
		case "startedAt":
			return timeVal(v, &l.StartedAt)
		case "worker":
			return str(v, &l.Worker)
		case "host":
			return str(v, &l.Host)
		}
		return false
	})
}

func fastQuestion(v *ynode, q *Question) bool {
	return eachKey(*v, func(k string, v *ynode) bool {
		switch k {
		case "options":
			return list(v, &q.Options, func(v *ynode, o *Option) bool {
				return eachKey(*v, func(k string, v *ynode) bool {
					switch k {
					case "label":
						return str(v, &o.Label)
					case "description":
						return str(v, &o.Description)
					}
					return false
				})
			})
		case "multiSelect":
			return boolean(v, &q.MultiSelect)
		case "gate":
			return boolean(v, &q.Gate)
		case "answer":
			return strList(v, &q.Answer)
		case "askedAt":
			return timeVal(v, &q.AskedAt)
		case "answeredAt":
			return timePtr(v, &q.AnsweredAt)
		case "expiresAt":
			return timePtr(v, &q.ExpiresAt)
		}
		var p *string
		switch k {
		case "id":
			p = &q.ID
		case "question":
			p = &q.Question
		case "header":
			p = &q.Header
		case "type":
			p = &q.Type
		case "default":
			p = &q.Default
		case "context":
			p = &q.Context
		case "tool":
			p = &q.Tool
		case "status":
			p = &q.Status
		case "comment":
			p = &q.Comment
		default:
			return false
		}
		return str(v, p)
	})
}

func fastEvent(v *ynode, e *Event) bool {
	return eachKey(*v, func(k string, v *ynode) bool {
		var p *string
		switch k {
		case "at":
			return timeVal(v, &e.At)
		case "kind":
			p = &e.Kind
		case "from":
			p = (*string)(&e.From)
		case "to":
			p = (*string)(&e.To)
		case "by":
			p = &e.By
		case "questionId":
			p = &e.QuestionID
		case "text":
			p = &e.Text
		case "context":
			p = &e.Context
		case "status":
			p = &e.Status
		case "session":
			p = &e.Session
		case "commit":
			p = &e.Commit
		case "stats":
			p = &e.Stats
		case "command":
			p = &e.Command
		case "output":
			p = &e.Output
		case "sandbox":
			p = &e.Sandbox
		case "exitCode":
			return integer(v, &e.ExitCode)
		case "round":
			return integer(v, &e.Round)
		case "took": // as yaml.v3 writes a duration: "2.5ms"
			d, err := time.ParseDuration(v.val)
			e.Took = d
			return v.plain && err == nil
		default:
			return false
		}
		return str(v, p)
	})
}

func eachKey(m ynode, f func(k string, v *ynode) bool) bool {
	if m.kind != 'm' {
		return false
	}
	for i := 0; i+1 < len(m.kids); i += 2 {
		if !f(m.kids[i].val, &m.kids[i+1]) {
			return false
		}
	}
	return true
}

func str(v *ynode, p *string) bool {
	*p = v.val
	return v.kind == 's'
}

func strList(v *ynode, p *[]string) bool {
	return list(v, p, str)
}

func list[T any](v *ynode, p *[]T, item func(*ynode, *T) bool) bool {
	if v.kind != 'q' {
		return false
	}
	*p = make([]T, len(v.kids))
	for i := range v.kids {
		if !item(&v.kids[i], &(*p)[i]) {
			return false
		}
	}
	return true
}

func boolean(v *ynode, p *bool) bool {
	*p = v.val == "true"
	return v.plain && (v.val == "true" || v.val == "false")
}

// timeVal reads a time as bh writes it: RFC 3339 in UTC, plain. yaml.v3
// parses those with time.Parse too, so the two give the same value.
func timeVal(v *ynode, p *time.Time) bool {
	if !v.plain || !strings.HasSuffix(v.val, "Z") || strings.IndexByte(v.val, 'T') != 10 {
		return false
	}
	t, err := time.Parse(time.RFC3339Nano, v.val)
	*p = t
	return err == nil
}

func timePtr(v *ynode, p **time.Time) bool {
	*p = new(time.Time)
	return timeVal(v, *p)
}
