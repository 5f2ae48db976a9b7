package landing

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/github"
)

// OpenPR pushes branch to remote and opens a pull request for it onto
// target, or finds the one already open (a crash between gh's answer and
// the journal leaves one open). It returns the branch's tip and the
// pull request's URL.
func (g GH) OpenPR(ctx context.Context, repo *git.Repo, remote, branch, target string, t *task.Task, body string) (head, url string, err error) {
	if head, err = repo.BranchTip(branch); err != nil {
		return "", "", err
	}
	// The branch is bh's: a later round squashes anew, so it is forced.
	if err := repo.PushRefs(remote, "refs/heads/"+branch); err != nil {
		return "", "", err
	}
	on := ghRepo(repo.RemoteURL(remote))
	if on == "" {
		return "", "", fmt.Errorf("land: pr: remote %s is not on GitHub (set GH_REPO to [HOST/]OWNER/REPO)", remote)
	}
	var open []struct {
		URL string `json:"url"`
	}
	out, err := g.run(ctx, "", "pr", "list", "-R", on, "--head", branch, "--state", "open",
		"--json", "url", "--limit", "1")
	if err != nil {
		return "", "", err
	}
	if err := json.Unmarshal(out, &open); err != nil {
		return "", "", fmt.Errorf("gh pr list: %w", err)
	}
	if len(open) > 0 {
		return head, open[0].URL, nil
	}
	out, err = g.run(ctx, body, "pr", "create", "-R", on, "--head", branch, "--base", target,
		"--title", t.ID+": "+oneLine(t.Title), "--body-file", "-")
	if err != nil {
		return "", "", err
	}
	return head, lastLine(string(out)), nil
}

// FetchBranch brings a pull request's branch from the remote when this
// clone lacks it: another machine's worker opened the pull request, and
// its feedback resumes the work here.
func FetchBranch(s *store.Store, repo *git.Repo, t *task.Task, branch string) error {
	if t.PullRequest() == "" {
		return nil
	}
	if tip, err := repo.BranchTip(branch); err != nil || tip != "" {
		return err
	}
	return repo.FetchInto(Remote(s), "refs/heads/"+branch+":refs/heads/"+branch)
}

// Remote is the remote pull requests go through.
func Remote(s *store.Store) string { return cmp.Or(s.Config.Remote, "origin") }

// CatchUpRemote rebases a pull request's branch onto target as the
// remote has it, when it moved on there past base (a conflict that
// GitHub reports comes back this way, to the agent, as a landing's
// does). It returns the new base, "" when the branch stayed.
func CatchUpRemote(repo *git.Repo, wt *git.Worktree, remote, target, base string) (string, error) {
	tracking := "refs/remotes/" + remote + "/" + target
	if err := repo.FetchInto(remote, "+refs/heads/"+target+":"+tracking); err != nil {
		return "", err
	}
	tip, err := repo.RemoteTip(remote, target)
	if err != nil || tip == "" {
		return "", err
	}
	if in, err := repo.Contains(base, tip); err != nil || in {
		return "", err // the base is there already, or ahead
	}
	if err := wt.Rebase(tip); err != nil {
		return "", TroubleOf(err)
	}
	return tip, nil
}

// BaseOf is what a task's worktree forks from: for a pull request, its
// base as the remote last had it, which a rebase may have moved past the
// local branch.
func BaseOf(s *store.Store, repo *git.Repo, t *task.Task, target string) string {
	if _, mode := config.Delivery(t, s.Config); mode == task.LandPR {
		if tip, _ := repo.RemoteTip(Remote(s), target); tip != "" {
			return "refs/remotes/" + Remote(s) + "/" + target
		}
	}
	return target
}

// PRBody is a pull request's description: the agent's summary, the
// questions and answers that shaped the work, and the checks it passed
// (this landing's check runs, which the task's history records only as
// the landing ends).
func PRBody(t *task.Task, summary, details string, checks []task.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", summary)
	if details != "" {
		fmt.Fprintf(&b, "\n%s\n", details)
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
	var passed []string
	for _, ev := range checks {
		if ev.ExitCode == 0 && !slices.Contains(passed, ev.Command) {
			passed = append(passed, ev.Command)
		}
	}
	if len(passed) > 0 {
		fmt.Fprintf(&b, "\n### Checks passed\n")
		for _, c := range passed {
			fmt.Fprintf(&b, "- `%s`\n", c)
		}
	}
	if n := github.IssueNumber(t.Source); n > 0 { // merging the pull request closes the task's issue
		fmt.Fprintf(&b, "\nCloses #%d\n", n)
	}
	fmt.Fprintf(&b, "\nbh-task: %s\n", t.ID)
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func lastLine(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(l[len(l)-1])
}

// ghTimeout bounds one gh call: a pull request's API answers in seconds.
const ghTimeout = 2 * time.Minute

// ghOutput caps what bh keeps of gh's output (a job's log is cut to its tail).
const ghOutput = 4 << 20

// GH is the GitHub CLI, run with the user's own authentication in the
// repository's root (Dir); Bin "" is gh on PATH.
type GH struct{ Bin, Dir string }

// run runs gh; stdin may be "".
func (g GH) run(ctx context.Context, stdin string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	errOut := proc.NewCapWriter(64<<10, 4<<10)
	cmd := proc.Cmd{Argv: append([]string{cmp.Or(g.Bin, "gh")}, args...), Dir: g.Dir, Stdout: &out,
		Stderr: errOut, Timeout: ghTimeout,
		Env: []string{"GH_PROMPT_DISABLED=1", "NO_COLOR=1", "GH_NO_UPDATE_NOTIFIER=1",
			// Any git gh runs in the user's tree runs no hook, as bh's own.
			"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.hooksPath", "GIT_CONFIG_VALUE_0=" + os.DevNull}}
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	res, err := proc.Run(ctx, cmd)
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", res.ExitCode)
	}
	if err != nil {
		return nil, fmt.Errorf("gh %s: %w: %s", strings.Join(args[:min(2, len(args))], " "), err,
			strings.TrimSpace(string(errOut.Bytes())))
	}
	if out.Len() > ghOutput {
		return out.Bytes()[out.Len()-ghOutput:], nil
	}
	return out.Bytes(), nil
}

// api reads one REST endpoint of the pull request's host into v.
func (g GH) api(ctx context.Context, p prRef, path string, v any) error {
	out, err := g.run(ctx, "", "api", "--hostname", p.Host, fmt.Sprintf("repos/%s/%s/%s", p.Owner, p.Repo, path))
	if err != nil {
		return err
	}
	if s, ok := v.(*string); ok {
		*s = string(out)
		return nil
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("gh api %s: %w", path, err)
	}
	return nil
}

// prRef is a pull request as its URL names it: the task file keeps the
// URL, so that any machine's worker can shepherd it.
type prRef struct {
	Host, Owner, Repo string
	Number            int
}

var prURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^https?://([^/]+)/([^/]+)/([^/]+)/pull/(\d+)`)
})

func parsePR(url string) (prRef, bool) {
	m := prURL().FindStringSubmatch(strings.TrimSpace(url))
	if m == nil {
		return prRef{}, false
	}
	var n int
	fmt.Sscan(m[4], &n)
	return prRef{Host: m[1], Owner: m[2], Repo: m[3], Number: n}, true
}

// ghRepo is the [HOST/]OWNER/REPO a pull request is opened on: $GH_REPO
// when set (a remote whose URL is not GitHub's), else the remote's URL.
func ghRepo(remoteURL string) string {
	if r := os.Getenv("GH_REPO"); r != "" {
		return r
	}
	u := strings.TrimSuffix(strings.TrimSpace(remoteURL), ".git")
	if rest, ok := strings.CutPrefix(u, "git@"); ok { // git@github.com:owner/repo
		return strings.Replace(rest, ":", "/", 1)
	}
	for _, p := range []string{"https://", "http://", "ssh://git@"} {
		if rest, ok := strings.CutPrefix(u, p); ok {
			return rest
		}
	}
	return ""
}
