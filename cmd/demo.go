package cmd

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/bh-tracker/bh/cmd/demoagent"
	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/slots"
	"github.com/spf13/cobra"
)

type DemoOptions struct {
	base
	Ctx  context.Context
	Keep bool
}

func newCmdDemo(f *Factory, runF func(*DemoOptions) error) *cobra.Command {
	opts := &DemoOptions{}
	c := &cobra.Command{
		Use:   "demo",
		Short: "Watch bh work end to end in a throwaway repository",
		Long: `Show bh at work in a fresh git repository in a temporary folder, offline and
in a few seconds: two tasks are added, a scripted stand-in for a coding agent
completes the first and asks a question on the second, whose partial work is
parked; the question is answered as bh respond would, and the worker resumes
the same session and commits. Finally the repository's git log is shown.

The folder is removed afterwards unless --keep is given.`,
		Example: `  bh demo
  bh demo --keep`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx = f.base(), c.Context()
			return runWith(runF, demoRun, opts)
		},
	}
	c.Flags().BoolVar(&opts.Keep, "keep", false, "keep the demo repository and print where it is")
	return c
}

func demoRun(opts *DemoOptions) error {
	dir, err := os.MkdirTemp("", "bh-demo-")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if !opts.Keep {
		defer removeDemo(dir)
	}
	io, w := opts.IO, opts.IO.Out
	if !opts.JSON {
		fmt.Fprintf(w, "%s\n\n", io.Bold("bh demo: a scripted agent works through two tasks in a fresh repository"))
	}
	n := &narrator{dir: dir, p: &progress{io: io, w: w, json: opts.JSON}}
	n.p.lookup = func(id string) (*task.Task, error) {
		s, err := store.Find(dir)
		if err != nil {
			return nil, err
		}
		return s.Get(id)
	}
	if err := runDemo(opts.Ctx, dir, n.report); err != nil {
		return err
	}
	if !opts.JSON {
		out, err := git.DemoLog(dir)
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		fmt.Fprintf(w, "\n%s\n%s", io.Bold("$ git log --stat --oneline"), out)
	}
	if opts.Keep {
		fmt.Fprintf(opts.IO.ErrOut, "the demo repository is kept in %s\n", dir)
	}
	return nil
}

// narrator tells the demo's story around the worker's own progress lines.
type narrator struct {
	dir   string
	p     *progress
	begun bool
}

func (n *narrator) report(e worker.Event) {
	if n.p.json {
		n.p.report(e)
		return
	}
	io, w := n.p.io, n.p.w
	if !n.begun {
		n.begun = true
		n.added()
		fmt.Fprintf(w, "\n%s\n", io.Faint("$ bh worker --once"))
	}
	switch {
	case e.Kind == worker.Answered:
		fmt.Fprintf(w, "\n%s\n", io.Faint("$ "+n.respondCommand(e.Task, e.Summary)))
		n.p.report(e)
		fmt.Fprintf(w, "\n%s\n", io.Faint("$ bh worker --once"))
		return
	case e.Kind == worker.Started && e.Resume:
		fmt.Fprintf(w, "%s\n", io.Faint("the worker puts the parked work back and resumes the agent's session with the answer"))
	}
	n.p.report(e)
}

// added lists the tasks the demo created, as bh add would have: the
// demo reports no event before its worker starts.
func (n *narrator) added() {
	io, w := n.p.io, n.p.w
	s, err := store.Find(n.dir)
	if err != nil {
		return
	}
	tasks, _, err := s.List()
	if err != nil {
		return
	}
	task.SortQueue(tasks)
	for _, t := range tasks {
		line := fmt.Sprintf("added %s %s %s", io.Cyan(t.ID), ui.PriorityText(io, t.Priority), io.Bold(t.Title))
		if len(t.DependsOn) > 0 {
			line += io.Faint(" (depends on " + strings.Join(t.DependsOn, ", ") + ")")
		}
		fmt.Fprintln(w, line)
	}
}

// respondCommand is the bh respond command that gives the demo's answer.
func (n *narrator) respondCommand(id, answer string) string {
	cmd := "bh respond " + id + " "
	if t, err := n.p.lookup(id); err == nil && len(t.Questions) > 0 {
		switch t.Questions[len(t.Questions)-1].Kind() {
		case task.ChoiceQuestion:
			return cmd + "--choice " + answer
		case task.ApprovalQuestion:
			return cmd + "--yes"
		}
	}
	return cmd + fmt.Sprintf("%q", answer)
}

// runDemo shows bh end to end in dir, which it makes a fresh git
// repository: two tasks, a scripted agent that completes one and asks a
// question on the other, a human answer given the way `bh respond` gives
// it, and the resumed session's commit. It needs no network and no real
// agent; afterwards dir's git log shows the result.
func runDemo(ctx context.Context, dir string, report func(worker.Event)) error {
	if err := git.InitDemo(dir); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	s, _, err := store.Init(dir)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := git.CommitDemo(dir, "bh init", ".bh"); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	greet, err := s.Create(&task.Task{Title: "Add a greeting script", Priority: "P1",
		Description: "hello.sh prints a greeting."})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	lic, err := s.Create(&task.Task{Title: "Add a license", Priority: "P2", DependsOn: []string{greet.ID}})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	opt := worker.Options{Runner: demoagent.Agent(), Report: report, Once: true, Name: "demo"}
	if err := worker.Run(ctx, ctx, s, opt); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	t, err := s.Get(lic.ID)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if t.State != task.AwaitingInput {
		return fmt.Errorf("demo: %s is %s, expected it to wait for an answer", t.ID, t.State)
	}
	if _, err := notify.Answer(s, t.ID, []task.Answer{{Values: []string{demoagent.Answer}}}, "demo", nil); err != nil {
		return fmt.Errorf("demo: respond: %w", err)
	}
	if report != nil {
		report(worker.Event{Kind: worker.Answered, Task: t.ID, Title: t.Title, Question: t.Question, Summary: demoagent.Answer})
	}
	if err := worker.Run(ctx, ctx, s, opt); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if t, err = s.Get(lic.ID); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if t.State != task.Closed {
		return fmt.Errorf("demo: %s ended %s: %s", t.ID, t.State, t.Summary)
	}
	return nil
}

// removeDemo removes the demo repository in dir and the worktrees bh
// made for it in its state dir, which would otherwise outlive it.
func removeDemo(dir string) error {
	if s, err := store.Find(dir); err == nil {
		if r, err := git.Open(s.Root); err == nil {
			os.RemoveAll(slots.WorktreeDir(s, r.CommonDir()))
		}
	}
	return os.RemoveAll(dir)
}
