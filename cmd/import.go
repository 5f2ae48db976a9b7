package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/github"
	"github.com/spf13/cobra"
)

type ImportOptions struct {
	base
	Source, Repo, Label, Assignee string
}

func newCmdImport(f *Factory, runF func(*ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{}
	c := &cobra.Command{
		Use:   "import github",
		Short: "Make tasks of a GitHub repository's issues, and ask their questions there",
		Long: `Turn the open issues that carry the label bh (or github.label: in
.bh/config.yaml, or --label), or that are assigned to github.assignee:, into
tasks: the title, the body as the description, the issue's link and labels,
priority and type from the labels github.priority: and github.type: map.
Each issue is one task however often it runs, found again by its link; an
edited issue updates the task until a run starts (after, it is shown, not
applied); a closed issue defers its task.

The same pass posts each waiting task's questions on its issue as one
comment, takes a reply by a collaborator with write access as the answer
(/bh 2, /bh yes, /bh no <feedback>, or the words of a freeform answer), and
notes on the issue answers given elsewhere and how the task ended. bh sync
and the worker do it too when the config has github:.

The repository is github.repo:, else GH_REPO, else the remote's URL. The
token is GH_TOKEN, else gh's own login (gh auth token); it is never given
to an agent.

Exit codes:
  0  done
  1  no login, a token without the scopes, a repository not visible, or
     the rate limit (paused until its reset)`,
		Example: `  bh import github
  bh import github --label agent --repo github.com/acme/api`,
		Args:      argsRange(1, 1, "the source: github"),
		ValidArgs: []string{"github"},
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.Source = f.base(), args[0]
			return runWith(runF, importRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Repo, "repo", "", "the repository `[HOST/]OWNER/REPO`")
	c.Flags().StringVar(&opts.Label, "label", "", "import the issues with this `LABEL` (default bh)")
	c.Flags().StringVar(&opts.Assignee, "assignee", "", "import the issues assigned to this `LOGIN` too")
	return c
}

func importRun(opts *ImportOptions) error {
	if opts.Source != "github" {
		return usageErrorf("bh import: unknown source %q (want github)", opts.Source)
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	cfg := config.GitHubConfig{}
	if s.Config.GitHub != nil {
		cfg = *s.Config.GitHub
	}
	cfg.Repo, cfg.Label, cfg.Assignee = cmp.Or(opts.Repo, cfg.Repo), cmp.Or(opts.Label, cfg.Label), cmp.Or(opts.Assignee, cfg.Assignee)
	res, err := github.Sync(context.Background(), s, cfg, github.Options{By: "human", Logf: func(format string, args ...any) {
		fmt.Fprintf(opts.IO.ErrOut, "bh: "+format+"\n", args...)
	}})
	if err != nil {
		return githubHint(err)
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, res)
	}
	for _, id := range res.Added {
		fmt.Fprintln(opts.IO.Out, id)
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s: %s\n", res.Repo, importSaid(res))
	return nil
}

// importSaid is a sync's result in words.
func importSaid(res github.Result) string {
	var did []string
	for _, d := range []struct {
		ids  []string
		what string
	}{{res.Added, "imported"}, {res.Updated, "updated"}, {res.Shown, "edited after their run started (not applied)"},
		{res.Deferred, "deferred (issue closed)"}, {res.Asked, "questions asked"}, {res.Answered, "answered on the issue"}} {
		if len(d.ids) > 0 {
			did = append(did, fmt.Sprintf("%d %s", len(d.ids), d.what))
		}
	}
	if len(did) == 0 {
		return "nothing new"
	}
	return strings.Join(did, ", ")
}

// githubHint says what to do about GitHub's trouble.
func githubHint(err error) error {
	var (
		nl *github.NoLoginError
		se *github.ScopeError
		nv *github.NotVisibleError
		rl *github.RateLimitError
	)
	switch {
	case errors.As(err, &nl):
		return withHint(err, "log in with gh auth login, or set GH_TOKEN")
	case errors.As(err, &se):
		return withHint(err, "give the token the repo scope: gh auth refresh -s repo")
	case errors.As(err, &nv):
		return withHint(err, "check the name, and that this login can see it: gh repo view "+nv.Repo)
	case errors.As(err, &rl):
		return withHint(err, "bh waits for the reset by itself; nothing was lost")
	}
	return err
}
