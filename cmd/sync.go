package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/github"
	"github.com/bh-tracker/bh/worker/storegit"
	"github.com/spf13/cobra"
)

type SyncOptions struct {
	base
	Remote string
	NoPush bool
}

func newCmdSync(f *Factory, runF func(*SyncOptions) error) *cobra.Command {
	opts := &SyncOptions{}
	c := &cobra.Command{
		Use:   "sync",
		Short: "Share tasks through git: commit .bh, pull with rebase, push",
		Long: `Commit what changed under .bh/ (bh's files only: your other changes, staged
or not, stay as they are), pull the checked-out branch with rebase (task
files merge field by field through bh's merge driver), and push it. Parked
work and agent sessions other machines pushed are fetched too, so that a
question asked elsewhere can be answered and resumed here; without remote:
in .bh/config.yaml, this clone's parked work is pushed with it (bh diff
shows it in every clone). When this clone
and another answered one question, the earlier answer is used in both; a
sync that sets one of your answers aside says so on stderr.

The remote is --remote, else the config's remote:, else origin. A push that
loses a race with another machine fetches and tries again. With autoSync:
in .bh/config.yaml the worker syncs on that interval by itself.

Exit codes:
  0  synced
  1  the remote cannot be reached, or the pull would overwrite your
     uncommitted changes, or conflicts (nothing is lost: your tasks stay
     committed here)`,
		Example: `  bh sync
  bh sync --no-push      # offline: commit and pull only what is already fetched
  bh sync --remote upstream`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts.base = f.base()
			return runWith(runF, syncRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Remote, "remote", "", "sync with the git remote `NAME`")
	c.Flags().BoolVar(&opts.NoPush, "no-push", false, "commit and pull, but do not push")
	return c
}

func syncRun(opts *SyncOptions) error {
	s, err := opts.Store()
	if err != nil {
		return err
	}
	// Issues first (github:), so that what they changed is committed now;
	// GitHub's trouble is a warning.
	if c := s.Config.GitHub; c != nil {
		if _, err := github.Sync(context.Background(), s, *c, github.Options{By: "human"}); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "bh: %v\n", err)
		}
	}
	res, err := worker.Sync(s, opts.Remote, !opts.NoPush)
	if err != nil {
		return syncHint(err, res)
	}
	for _, l := range res.Lost {
		fmt.Fprintf(opts.IO.ErrOut, "bh: %s\n", storegit.LostLine(l))
	}
	// Pull requests in review are polled too (land: pr); gh's trouble is a warning.
	if err := worker.Shepherd(context.Background(), s, worker.Options{}); err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "bh: %v\n", err)
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, res)
	}
	var did []string
	if res.Committed {
		did = append(did, "committed task changes")
	}
	if res.Pulled > 0 {
		did = append(did, "pulled "+ui.Plural(res.Pulled, "commit"))
	}
	if res.Pushed > 0 {
		did = append(did, "pushed "+ui.Plural(res.Pushed, "commit"))
	}
	if res.Offline {
		did = append(did, "the remote is unreachable: pulled only what was fetched before")
	}
	if len(did) == 0 {
		did = append(did, "already in step")
	}
	fmt.Fprintf(opts.IO.ErrOut, "synced %s with %s: %s\n", res.Branch, res.Remote, strings.Join(did, ", "))
	return nil
}

// syncHint says what to do about a sync that failed, and that nothing
// was lost.
func syncHint(err error, res storegit.SyncResult) error {
	var (
		nr *storegit.NoRemoteError
		re *git.RemoteError
		rc *git.RebaseConflict
		lr *usertree.LandRefused
		le *git.RemoteLockError
	)
	kept := ""
	if res.Committed {
		kept = "; your task changes are committed here"
	}
	switch {
	case errors.As(err, &nr):
		return withHint(err, "add one with git remote add "+nr.Remote+" <url>, or name yours with remote: in .bh/config.yaml")
	case errors.As(err, &rc):
		return withHint(err, "nothing was changed"+kept+"; merge by hand with git pull --rebase --autostash "+res.Remote+" "+res.Branch+", then bh sync")
	case errors.As(err, &lr):
		return withHint(err, "nothing was changed"+kept)
	case errors.As(err, &re):
		return withHint(err, "nothing was lost"+kept+"; bh sync --no-push works offline")
	case errors.As(err, &le):
		return withHint(err, "nothing was lost"+kept+"; if no push to "+res.Remote+" is under way, a git that crashed there left it: remove "+le.Lock+" on the remote, then bh sync again")
	case errors.Is(err, git.ErrStale):
		return withHint(err, "others kept pushing; run bh sync again")
	}
	return err
}
