package worker

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
)

// openPR pushes the task's branch to its remote and opens a pull request
// for it, or finds the one already open (a crash between gh's answer and
// the journal leaves one open): the URL goes into the task's history.
func (w *worker) openPR(r *run, e *ending.Ending) error {
	ctx := w.stopping() // a stopped gh is asked again on the next start: an open pull request is found
	remote := prRemote(w.s)
	head, err := w.repo.BranchTip(r.j.Branch)
	if err != nil {
		return err
	}
	// The branch is bh's: a later round squashes anew, so it is forced.
	if err := w.repo.PushRefs(remote, "refs/heads/"+r.j.Branch); err != nil {
		return err
	}
	e.Commit = head
	repo := ghRepo(w.repo.RemoteURL(remote))
	if repo == "" {
		return fmt.Errorf("land: pr: remote %s is not on GitHub (set GH_REPO to [HOST/]OWNER/REPO)", remote)
	}
	var open []struct {
		URL string `json:"url"`
	}
	out, err := w.gh(ctx, "", "pr", "list", "-R", repo, "--head", r.j.Branch, "--state", "open",
		"--json", "url", "--limit", "1")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(out, &open); err != nil {
		return fmt.Errorf("gh pr list: %w", err)
	}
	if len(open) > 0 {
		e.PR = open[0].URL
		return saveJournal(w.s, r.j)
	}
	out, err = w.gh(ctx, prBody(r.t, e), "pr", "create", "-R", repo, "--head", r.j.Branch, "--base", r.j.Target,
		"--title", r.t.ID+": "+strings.Join(strings.Fields(r.t.Title), " "), "--body-file", "-")
	if err != nil {
		return err
	}
	e.PR = lastLine(string(out))
	return saveJournal(w.s, r.j) // r.j.Ending is e: a crash from here on finds the PR in the journal
}

// checkGH refuses to start without gh when pull requests are to be
// opened or shepherded (land: pr in the config or on a task not closed).
func (w *worker) checkGH() error {
	need := w.s.Config.Land == task.LandPR
	if !need {
		tasks, _, err := w.s.ListBrief()
		if err != nil {
			return err
		}
		need = slices.ContainsFunc(tasks, func(t *task.Task) bool { return t.Land == task.LandPR && t.State != task.Closed })
	}
	if _, err := exec.LookPath(firstOf(w.opt.GH, "gh")); need && err != nil {
		return &PreflightError{Err: fmt.Errorf("land: pr needs the GitHub CLI: %w", err),
			Advice: "install gh (https://cli.github.com, or apt-get install gh) and run gh auth login"}
	}
	return nil
}

// prBranch brings a pull request's branch from the remote when this
// clone lacks it: another machine's worker opened the pull request, and
// its feedback resumes the work here.
func (w *worker) prBranch(t *task.Task) error {
	if t.PullRequest() == "" {
		return nil
	}
	branch := Branch(t.ID)
	if tip, err := w.repo.BranchTip(branch); err != nil || tip != "" {
		return err
	}
	return w.repo.FetchInto(prRemote(w.s), "refs/heads/"+branch+":refs/heads/"+branch)
}

// prRemote is the remote pull requests go through.
func prRemote(s *store.Store) string { return firstOf(s.Config.Remote, "origin") }

// catchUpRemote rebases a pull request's branch onto its base as the
// remote has it, when the base moved on there (a conflict that GitHub
// reports comes back this way, to the agent, as a landing's does).
func (w *worker) catchUpRemote(r *run) error {
	remote := prRemote(w.s)
	tracking := "refs/remotes/" + remote + "/" + r.j.Target
	if err := w.repo.FetchInto(remote, "+refs/heads/"+r.j.Target+":"+tracking); err != nil {
		return err
	}
	tip, err := w.repo.RemoteTip(remote, r.j.Target)
	if err != nil || tip == "" {
		return err
	}
	if in, err := w.repo.Contains(r.j.Base, tip); err != nil || in {
		return err // the base is there already, or ahead
	}
	if err := r.wt.Rebase(tip); err != nil {
		return err
	}
	r.j.Base = tip
	return saveJournal(w.s, r.j)
}

// baseOf is what a task's worktree forks from: for a pull request, its
// base as the remote last had it, which a rebase may have moved past the
// local branch.
func (w *worker) baseOf(t *task.Task, target string) string {
	if _, mode := config.Delivery(t, w.s.Config); mode == task.LandPR {
		if tip, _ := w.repo.RemoteTip(prRemote(w.s), target); tip != "" {
			return "refs/remotes/" + prRemote(w.s) + "/" + target
		}
	}
	return target
}

// prBody is a pull request's description: the agent's summary, the
// questions and answers that shaped the work, and the checks it passed.
func prBody(t *task.Task, e *ending.Ending) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", firstOf(e.Summary, e.Result.Summary, t.Summary, t.Title))
	if d := firstOf(e.Details, e.Result.Details); d != "" {
		fmt.Fprintf(&b, "\n%s\n", d)
	}
	var qa []string
	for _, q := range t.Questions {
		if q.Status == task.QuestionAnswered && !q.Gate {
			qa = append(qa, fmt.Sprintf("- **%s**\n  %s", oneLine(q.Question), strings.Join(q.Answer, ", ")))
		}
	}
	if len(qa) > 0 {
		fmt.Fprintf(&b, "\n### Questions and answers\n%s\n", strings.Join(qa, "\n"))
	}
	if checks := passedChecks(e); len(checks) > 0 {
		fmt.Fprintf(&b, "\n### Checks passed\n")
		for _, c := range checks {
			fmt.Fprintf(&b, "- `%s`\n", c)
		}
	}
	fmt.Fprintf(&b, "\nbh-task: %s\n", t.ID)
	return b.String()
}

// passedChecks are the commands that passed on the tree the pull request
// gets: this landing's check runs, which the task's history records only
// as the landing ends.
func passedChecks(e *ending.Ending) []string {
	var out []string
	for _, ev := range e.Checks {
		if ev.ExitCode == 0 && !slices.Contains(out, ev.Command) {
			out = append(out, ev.Command)
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func lastLine(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(l[len(l)-1])
}
