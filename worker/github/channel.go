package github

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/act"
	"github.com/bh-tracker/bh/worker/notify"
)

// ask posts the questions each waiting task has not asked on its issue yet,
// all in one comment.
func (x *syncer) ask(ctx context.Context) error {
	web, _ := config.LoadWebConfig() // without it, no review link
	for _, t := range x.bySource {
		n := IssueNumber(t.Source)
		if t.State != task.AwaitingInput || n == 0 {
			continue
		}
		qs := x.unasked(t)
		if len(qs) == 0 {
			continue
		}
		e := notify.FromTask(task.EventInputRequested, t, x.s.Root, web, x.now())
		c, err := x.c.Comment(ctx, n, questionText(t, qs, e))
		if err != nil {
			return err
		}
		x.st.Seen[c.ID] = true
		if x.st.Posted[t.ID] == nil {
			x.st.Posted[t.ID] = map[string]Post{}
		}
		for _, q := range qs {
			x.st.Posted[t.ID][q.ID] = Post{Comment: c.ID, At: c.CreatedAt}
			x.res.Asked = append(x.res.Asked, t.ID+" "+q.ID)
		}
	}
	return nil
}

// unasked are the questions t waits on that its issue has not been asked.
func (x *syncer) unasked(t *task.Task) []task.Question {
	var qs []task.Question
	for _, q := range t.Pending() {
		if _, ok := x.st.Posted[t.ID][q.ID]; !ok {
			qs = append(qs, q)
		}
	}
	return qs
}

// replies reads the comments new since the last poll and takes those that
// answer.
func (x *syncer) replies(ctx context.Context) error {
	cs, changed, err := x.c.Comments(ctx, x.st.CommentsSince)
	if err != nil || !changed {
		return err
	}
	x.res.Polls++
	for _, c := range cs {
		if u := c.UpdatedAt.UTC().Format(time.RFC3339); u > x.st.CommentsSince {
			x.st.CommentsSince = u
		}
		if err := x.takeReply(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// takeReply takes comment c as an answer when it is one: new (an edit of a
// comment seen before never answers again), on the issue of a task that
// asked there before c was written, not bh's own, and by an account with
// write access. It goes through the one door (act.Answer) as given.
func (x *syncer) takeReply(ctx context.Context, c Comment) error {
	t := x.repliesTo(c)
	if t == nil {
		return nil
	}
	ans, ok := ParseReply(c.Body, t.Pending())
	if !ok && t.State == task.AwaitingInput {
		return nil
	}
	if ok, err := x.writer(ctx, c.User.Login); err != nil || !ok {
		return err
	}
	if len(ans) == 0 && !strings.Contains(c.Body, "/bh") {
		return nil
	}
	done, err := act.Answer(x.s, t.ID, ans, Via+c.User.Login, x.logf)
	if err == nil {
		x.bySource[t.Source] = done
		x.res.Answered = append(x.res.Answered, t.ID)
		return nil
	}
	return x.refusedReply(ctx, t, c, err)
}

// repliesTo is the task comment c may answer: c is new, not bh's, and on
// the issue of a task that asked there before c was written.
func (x *syncer) repliesTo(c Comment) *task.Task {
	if x.st.Seen[c.ID] {
		return nil // an edit of a comment read before
	}
	x.st.Seen[c.ID] = true
	t := x.byIssue(IssueNumber(c.IssueURL))
	if t == nil || strings.Contains(c.Body, marker) || c.User.Login == x.st.Self {
		return nil
	}
	for _, p := range x.st.Posted[t.ID] {
		if !c.CreatedAt.Before(p.At) {
			return t
		}
	}
	return nil // older than every question: not a reply to one
}

// refusedReply tells the issue why a reply was not taken: too late, or
// not fitting its question.
func (x *syncer) refusedReply(ctx context.Context, t *task.Task, c Comment, err error) error {
	var (
		ae *task.AnswerError
		le *task.LateError
		na *task.NotAwaitingError
	)
	text := ""
	now, gerr := x.s.Get(t.ID)
	if gerr != nil {
		return gerr
	}
	switch {
	case errors.As(err, &le), errors.As(err, &na), errors.As(err, &ae) && ae.AnsweredBy != "":
		text = lateText(c.User.Login, now)
	case errors.As(err, &ae):
		text = fmt.Sprintf("%s\n@%s your reply was not taken: %s", marker, c.User.Login, ae.Error())
	default:
		return err
	}
	_, perr := x.c.Comment(ctx, IssueNumber(t.Source), text)
	return perr
}

// writer says whether login has write access, asked once a pass.
func (x *syncer) writer(ctx context.Context, login string) (bool, error) {
	if ok, asked := x.writers[login]; asked {
		return ok, nil
	}
	ok, err := x.c.CanWrite(ctx, login)
	if err != nil {
		return false, err
	}
	x.writers[login] = ok
	if !ok {
		x.logf("github: a reply by %s was not taken: no write access to %s", login, x.c.Slug())
	}
	return ok, nil
}

func (x *syncer) byIssue(n int) *task.Task {
	if n == 0 {
		return nil
	}
	for _, t := range x.bySource {
		if IssueNumber(t.Source) == n {
			return t
		}
	}
	return nil
}
