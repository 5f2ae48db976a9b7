package github

import (
	"cmp"
	"context"
	"errors"
	"os"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// Options are what a sync needs besides the store.
type Options struct {
	GH   string               // the gh binary for gh auth token; "" is gh on PATH
	By   string               // who changes tasks (the worker's name; "github" by default)
	Logf func(string, ...any) // warnings; nil discards them
	Now  func() time.Time     // nil: time.Now
	hear func(*syncer) error  // what a webhook's event does in place of polling
}

// Sync does one pass over the repository the config names (cfg, the
// config's github:, or its defaults): issues become tasks, waiting tasks
// ask on their issue, replies answer, and the issue hears what was
// answered elsewhere and how the task ended. Only what changed since the
// last pass is read, with conditional requests. A rate limit pauses every
// pass until its reset (a *RateLimitError until then).
func Sync(ctx context.Context, s *store.Store, cfg config.GitHubConfig, opt Options) (Result, error) {
	repo, err := RepoOf(s, cfg)
	if err != nil {
		return Result{}, err
	}
	lock, err := lockState(s)
	if err != nil {
		return Result{}, err
	}
	defer lock.Unlock()
	st, err := loadState(s, repo)
	if err != nil {
		return Result{}, err
	}
	x := newSyncer(s, st, cfg, opt)
	if x.now().Before(st.Paused) {
		return x.res, &RateLimitError{Reset: st.Paused}
	}
	host, _, _, _ := ParseRepo(repo)
	token, err := Token(ctx, opt.GH, host)
	if err != nil {
		return x.res, err
	}
	if x.c, err = New(repo, token); err != nil {
		return x.res, err
	}
	x.c.Cache = st.Cache
	err = x.pass(ctx, opt.hear)
	if rl := (*RateLimitError)(nil); errors.As(err, &rl) {
		st.Paused = rl.Reset
	}
	if serr := st.save(s); err == nil {
		err = serr
	}
	return x.res, err
}

func newSyncer(s *store.Store, st *state, cfg config.GitHubConfig, opt Options) *syncer {
	x := &syncer{s: s, st: st, cfg: cfg, by: cmp.Or(opt.By, "github"), logf: opt.Logf, now: opt.Now,
		res: Result{Repo: st.Repo}, writers: map[string]bool{}}
	if x.logf == nil {
		x.logf = func(string, ...any) {}
	}
	if x.now == nil {
		x.now = time.Now
	}
	return x
}

// pass is one sync's steps, in order; hear, if set, replaces the polls.
func (x *syncer) pass(ctx context.Context, hear func(*syncer) error) error {
	if err := x.loadTasks(); err != nil {
		return err
	}
	if x.st.Self == "" {
		self, err := x.c.Self(ctx)
		if err != nil {
			return err
		}
		x.st.Self = self
	}
	steps := []func(context.Context) error{x.importIssues, x.ask, x.replies, x.noteAnswers, x.noteEndings}
	if hear != nil {
		steps = []func(context.Context) error{func(context.Context) error { return hear(x) }, x.ask, x.noteAnswers, x.noteEndings}
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// loadTasks indexes the tasks that came from issues by their link.
func (x *syncer) loadTasks() error {
	tasks, _, err := x.s.List()
	if err != nil {
		return err
	}
	x.bySource = map[string]*task.Task{}
	for _, t := range tasks {
		if t.Source != "" {
			x.bySource[t.Source] = t
		}
	}
	return nil
}

// RepoOf is the repository whose issues are tasks: the config's repo:,
// else $GH_REPO, else the remote's URL.
func RepoOf(s *store.Store, cfg config.GitHubConfig) (string, error) {
	if r := cmp.Or(cfg.Repo, os.Getenv("GH_REPO")); r != "" {
		_, _, _, err := ParseRepo(r)
		return r, err
	}
	r, err := git.Open(s.Root)
	if err != nil {
		return "", err
	}
	u := r.RemoteURL(cmp.Or(s.Config.Remote, "origin"))
	if u == "" {
		return "", errors.New("github: no repository: set github.repo: in .bh/config.yaml, or GH_REPO, or a remote on GitHub")
	}
	host, owner, name, err := ParseRepo(u)
	if err != nil {
		return "", err
	}
	return host + "/" + owner + "/" + name, nil
}
