package cmd

import (
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/spf13/cobra"
)

type DoctorOptions struct {
	base
	Fix bool
}

func newCmdDoctor(f *Factory, runF func(*DoctorOptions) error) *cobra.Command {
	opts := &DoctorOptions{}
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check bh's state in this repository, and repair what is safe",
		Long: `Check the store (unreadable task files, dependency cycles), leases of
tasks in progress under a worker that died, the shared remote's claims, parked
work and session copies, bh's worktrees, stray lock and temp files, bh's merge
driver, and how this branch and .bh/ stand with the remote. Each finding says
what is wrong and what --fix does about it, or what you must do.

--fix repairs what it can without losing work: a dead worker's task is
recovered as bh worker does at start; claims this clone left held are
released; refs, worktrees, locks and temp files nothing needs are removed (a
worktree only when its changes are all in its parked ref; remote refs by
compare-and-swap, only as they were read). What a running worker manages is
left to it. Unreadable task files are never rewritten.

With --json: {healthy, problems, fixed, findings: [{check, status (ok, warn,
error or fixed), subject, message, fix, fixable}]}.

Exit codes:
  0  no problems, or every one was fixed
  1  problems remain (or the checks could not run)
  2  usage error`,
		Example: `  bh doctor
  bh doctor --fix
  bh doctor --json`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts.base = f.base()
			return runWith(runF, doctorRun, opts)
		},
	}
	c.Flags().BoolVar(&opts.Fix, "fix", false, "repair what is safe to repair")
	return c
}

// doctorJSON is bh doctor --json. Its field names are bh's interface.
type doctorJSON struct {
	Healthy  bool             `json:"healthy"`
	Problems int              `json:"problems"`
	Fixed    int              `json:"fixed"`
	Findings []doctor.Finding `json:"findings"`
}

func doctorRun(opts *DoctorOptions) error {
	s, err := opts.Store()
	if err != nil {
		return err
	}
	w, err := worker.ForDoctor(s)
	if err != nil {
		return fmt.Errorf("doctor: %w", err)
	}
	rep, err := doctor.Run(s, w, opts.Fix)
	if err != nil {
		return fmt.Errorf("doctor: %w", err)
	}
	problems, fixed := rep.Problems(), rep.Count(doctor.Fixed)
	if opts.JSON {
		if err := writeJSON(opts.IO.Out, doctorJSON{problems == 0, problems, fixed, rep.Findings}); err != nil {
			return err
		}
	} else {
		printFindings(opts.IO, rep, opts.Fix)
	}
	if problems == 0 {
		return nil
	}
	hint := "each finding above says what to do"
	switch n := fixable(rep); {
	case opts.Fix || n == 0:
	case n == problems:
		hint = "bh doctor --fix repairs them"
	default:
		hint = fmt.Sprintf("bh doctor --fix repairs %d of them; the others say what to do", n)
	}
	return withHint(errors.New(ui.Plural(problems, "problem")+" left"), hint)
}

func printFindings(io *IOStreams, rep doctor.Report, fix bool) {
	for _, f := range rep.Findings {
		icon, label := io.Green("✓"), "fix: "
		switch f.Status {
		case doctor.Warn:
			icon = io.Yellow("!")
		case doctor.Error:
			icon = io.Red("✗")
		case doctor.Fixed:
			label = "fixed: "
		}
		subject := ""
		if f.Subject != "" {
			subject = f.Subject + ": "
		}
		fmt.Fprintf(io.Out, "%s %s: %s%s\n", icon, f.Check, subject, f.Message)
		if f.Fix != "" && f.Status != doctor.OK {
			fmt.Fprintf(io.Out, "    %s%s\n", io.Faint(label), f.Fix)
		}
	}
	problems, fixed := rep.Problems(), rep.Count(doctor.Fixed)
	switch {
	case problems == 0 && fixed == 0:
		fmt.Fprintln(io.Out, io.Green("no problems"))
	case problems == 0:
		fmt.Fprintf(io.Out, "%s, %s\n", io.Green(ui.Plural(fixed, "problem")+" fixed"), "no problems left")
	default:
		fmt.Fprintf(io.Out, "%s (%s, %s)", ui.Plural(problems, "problem"), ui.Plural(rep.Count(doctor.Error), "error"),
			ui.Plural(rep.Count(doctor.Warn), "warning"))
		if fixed > 0 {
			fmt.Fprintf(io.Out, ", %d fixed", fixed)
		}
		if n := fixable(rep); n > 0 && !fix {
			fmt.Fprintf(io.Out, ", %d fixable with bh doctor --fix", n)
		}
		fmt.Fprintln(io.Out)
	}
}

// fixable counts the problems --fix would repair.
func fixable(rep doctor.Report) int {
	n := 0
	for _, f := range rep.Findings {
		if f.Fixable && (f.Status == doctor.Warn || f.Status == doctor.Error) {
			n++
		}
	}
	return n
}
