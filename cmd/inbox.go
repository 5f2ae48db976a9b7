package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/spf13/cobra"
)

type InboxOptions struct {
	base
	Editor func() string
	Picker func(*IOStreams) picker
	Answer bool // walk the questions on the terminal
}

func newCmdInbox(f *Factory, runF func(*InboxOptions) error) *cobra.Command {
	opts := &InboxOptions{}
	c := &cobra.Command{
		Use:   "inbox",
		Short: "Every question waiting for you, across your repositories",
		Long: `List every pending question, approval and landing decision in every
repository that uses bh (bh init, or any bh command run there, registers it
in ~/.config/bh/repos.json), oldest first: repository, task, question,
choices and age. Repositories that moved or vanished are named and skipped.
Answer with bh respond <id> --repo <path or name>, or all of them in turn
with --answer (the picker and editor of bh respond --all). With --json, one array
of {repo, repoPath, taskId, title, questionId, number, question, header, type,
options, askedAt, respond}: one per question, where the listing shows one
block per task.

Exit codes:
  0  the inbox was listed (even empty)
  1  the registry cannot be read`,
		Example: `  bh inbox
  bh inbox --answer
  bh inbox --json | jq -r '.[].taskId'`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts.base, opts.Editor, opts.Picker = f.base(), f.Editor, f.Picker
			return runWith(runF, inboxRun, opts)
		},
	}
	c.Flags().BoolVarP(&opts.Answer, "answer", "a", false, "answer each question in turn, on a terminal")
	return c
}

func inboxRun(opts *InboxOptions) error {
	if opts.Answer && !opts.IO.IsStdinTTY {
		return withHint(usageErrorf("--answer asks on a terminal, and stdin is not one"),
			"answer each with bh respond <id> --repo <repo> and its flags")
	}
	repos, err := config.Registered()
	if err != nil {
		return fmt.Errorf("read the registry of repositories: %w", err) // err names the file
	}
	in := store.ReadInbox(repos)
	for _, err := range in.Skipped {
		var moved *store.MovedError
		if errors.As(err, &moved) {
			err = withHint(err, "any bh command run in its new place registers it there")
		}
		warn(opts.IO, opts.JSON, err)
	}
	if opts.Answer {
		return inboxAnswer(opts, in.Items)
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, in.Items)
	}
	printInbox(opts.IO, opts.Now(), in.Items)
	return nil
}

// printInbox lists the questions for people: one block per task, its
// questions numbered when it asks several.
func printInbox(io *IOStreams, now time.Time, items []store.InboxItem) {
	if len(items) == 0 {
		fmt.Fprintln(io.ErrOut, "nothing is waiting for you")
	}
	for _, block := range byTask(items) {
		it := block[0]
		fmt.Fprintf(io.Out, "%s  %s  %s  %s\n", io.Bold(it.Repo), io.Cyan(it.TaskID), it.Title,
			io.Faint("asked "+ui.RelTime(now, it.AskedAt)))
		for _, it := range block {
			mark := "❓"
			if len(block) > 1 || it.Number > 1 {
				mark = fmt.Sprintf("%d.", it.Number)
			}
			fmt.Fprintf(io.Out, "  %s %s\n", mark, it.Question)
			for _, o := range it.Options {
				fmt.Fprintf(io.Out, "     - %s\n", o.Label)
			}
			fmt.Fprintf(io.Out, "     %s\n", io.Faint("answer with: "+it.Respond))
		}
	}
}

// byTask groups the inbox's questions into one block per task, in the
// order of each task's oldest question.
func byTask(items []store.InboxItem) [][]store.InboxItem {
	var out [][]store.InboxItem
	at := map[string]int{}
	for _, it := range items {
		key := it.Path + "\x00" + it.TaskID
		i, ok := at[key]
		if !ok {
			i, at[key] = len(out), len(out)
			out = append(out, nil)
		}
		out[i] = append(out[i], it)
	}
	return out
}

// registeredRepo is the repository --repo names: a folder, or the name
// (last path element) of exactly one registered repository.
func registeredRepo(ref string) (string, error) {
	if fi, err := os.Stat(ref); err == nil && fi.IsDir() {
		return filepath.Abs(ref)
	}
	repos, err := config.Registered()
	if err != nil {
		return "", err
	}
	var found []string
	for _, r := range repos {
		if filepath.Base(r) == ref {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", withHint(fmt.Errorf("no repository %q: not a folder, nor a registered name", ref), "bh inbox lists the registered repositories")
	}
	return "", fmt.Errorf("%q names %d repositories: %s; give the path", ref, len(found), strings.Join(found, ", "))
}

// inboxAnswer walks the inbox's tasks on the terminal, the task of the
// oldest question first, as bh respond --all does in one repository.
func inboxAnswer(opts *InboxOptions, items []store.InboxItem) error {
	ro := &RespondOptions{base: opts.base, Editor: opts.Editor, Picker: opts.Picker}
	var ws []waitingTask
	for _, block := range byTask(items) {
		it := block[0]
		s, err := store.Find(it.Path)
		if err != nil {
			return err
		}
		t, err := s.Get(it.TaskID)
		if err != nil {
			return err
		}
		ws = append(ws, waitingTask{s: s, t: t, repo: it.Repo})
	}
	if len(ws) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "nothing is waiting for you")
		return nil
	}
	return answerInTurn(ro, ws)
}
