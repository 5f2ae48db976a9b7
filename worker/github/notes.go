package github

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// Via prefixes the By of an answer given on the issue ("github:<login>").
const Via = "github:"

// noteAnswers tells each issue the answers its questions got elsewhere
// (bh respond, the board, the web, a phone), so that the issue tells the
// whole story.
func (x *syncer) noteAnswers(ctx context.Context) error {
	for _, t := range x.bySource {
		var lines []string
		for qid := range x.st.Posted[t.ID] {
			key := "answer:" + t.ID + ":" + qid
			e, ok := answeredBy(t, qid)
			if !ok || x.st.Noted[key] {
				continue
			}
			x.st.Noted[key] = true
			if strings.HasPrefix(e.By, Via) {
				continue // said on the issue already
			}
			if len(lines) == 0 {
				lines = append(lines, fmt.Sprintf("%s\nAnswered by %s at %s:", marker, task.Who(e.By, ""),
					e.At.UTC().Format("2006-01-02 15:04 UTC")))
			}
			lines = append(lines, fmt.Sprintf("- %s: %s", oneLine(questionOf(t, qid)), oneLine(e.Text)))
		}
		if len(lines) > 0 {
			if _, err := x.c.Comment(ctx, IssueNumber(t.Source), strings.Join(lines, "\n")); err != nil {
				return err
			}
		}
	}
	return nil
}

// answeredBy is the input.received event that answered question qid.
func answeredBy(t *task.Task, qid string) (task.Event, bool) {
	for i := len(t.History) - 1; i >= 0; i-- {
		if e := t.History[i]; e.Kind == task.EventInputReceived && e.QuestionID == qid {
			return e, true
		}
	}
	return task.Event{}, false
}

func questionOf(t *task.Task, qid string) string {
	if q := t.QuestionByID(qid); q != nil {
		return q.Question
	}
	return qid
}

// noteEndings tells each issue how its task ended: the commit it landed
// as (closing the issue where the config says so), the branch it waits
// on, or that it failed or was closed without landing. A pull request
// closes its issue itself, through its Closes #N.
func (x *syncer) noteEndings(ctx context.Context) error {
	for _, t := range x.bySource {
		key := fmt.Sprintf("end:%s:%s:%s", t.ID, t.State, t.UpdatedAt.UTC().Format("20060102T150405"))
		if IssueNumber(t.Source) == 0 || (t.State != task.Closed && t.State != task.Failed) || x.st.Noted[key] {
			continue
		}
		x.st.Noted[key] = true
		if err := x.noteEnding(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

func (x *syncer) noteEnding(ctx context.Context, t *task.Task) error {
	n := IssueNumber(t.Source)
	target, land := config.Delivery(t, x.s.Config)
	commit := x.landedAs(t, target, land)
	if _, err := x.c.Comment(ctx, n, endText(t, target, land, commit)); err != nil {
		return err
	}
	if x.cfg.Close && land != task.LandPR && commit != "" {
		return x.c.Close(ctx, n)
	}
	return nil
}

func endText(t *task.Task, target, land, commit string) string {
	switch {
	case t.State == task.Failed:
		return fmt.Sprintf("%s\n%s failed: %s", marker, t.ID, oneLine(t.Summary))
	case land == task.LandPR && strings.HasPrefix(lastReason(t), "pull request merged"):
		return fmt.Sprintf("%s\n%s landed through its pull request (%s).", marker, t.ID, lastReason(t))
	case commit == "":
		return fmt.Sprintf("%s\n%s was closed without landing.", marker, t.ID)
	case land == task.LandBranch:
		return fmt.Sprintf("%s\n%s is done: its work is on branch `bh/%s` (%s).", marker, t.ID, t.ID, commit)
	}
	if target == "" {
		return fmt.Sprintf("%s\n%s landed as %s.", marker, t.ID, commit)
	}
	return fmt.Sprintf("%s\n%s landed on `%s` as %s.", marker, t.ID, target, commit)
}

// lastReason is the reason t's last change of state gave.
func lastReason(t *task.Task) string {
	for i := len(t.History) - 1; i >= 0; i-- {
		if e := t.History[i]; e.Kind == task.EventState {
			return e.Text
		}
	}
	return ""
}

// landedAs is the commit t's work landed as: the one its history names
// (bh land), else the one on target (the branch bh/<id> for land: branch)
// that carries its trailer, as git log --grep finds it; "" when its work
// never landed.
func (x *syncer) landedAs(t *task.Task, target, land string) string {
	committed := false
	for i := len(t.History) - 1; i >= 0; i-- {
		if e := t.History[i]; e.Kind == task.EventCommit {
			if e.Commit != "" {
				return e.Commit
			}
			committed = true
		}
	}
	if !committed {
		return ""
	}
	ref := cmp.Or(target, "HEAD")
	if land == task.LandBranch {
		ref = "refs/heads/" + slots.Branch(t.ID)
	}
	if r, err := git.Open(x.s.Root); err == nil {
		if c, err := r.TaskCommit(ref, t.ID); err == nil && c != "" {
			return c[:min(len(c), 12)]
		}
	}
	return "its commit" // landed, but not found here (another clone's, not pulled yet)
}
