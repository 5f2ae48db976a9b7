// Package cmd is bh's command line. It is the only package that knows about
// flags, terminals and colour; the work itself happens in task and worker.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/bh-tracker/bh/cmd/web/webopts"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/spf13/cobra"
)

// Main runs bh with the process's arguments and returns its exit code.
func Main() int {
	return run(newFactory(), os.Args[1:])
}

// MainInbox is bh-web's Main: bh, with inbox as bh serve's web inbox.
// Run by a bh of another build (BH_SERVE_VERSION), it says so: the two
// are built from one checkout.
func MainInbox(inbox webopts.New) int {
	f := newFactory()
	f.Inbox = inbox
	if bh, web := os.Getenv("BH_SERVE_VERSION"), buildName(); bh != "" && bh != web {
		warn(f.IO, false, withHint(fmt.Errorf("bh-web is %s, bh is %s", web, bh),
			`build both from one checkout: go build -o "$(dirname "$(command -v bh)")" . ./cmd/web/bh-web`))
	}
	return run(f, os.Args[1:])
}

func run(f *Factory, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f.Args = args
	root := newRootCmd(f)
	root.SetArgs(args)
	c, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var quiet quietExit
	if errors.As(err, &quiet) {
		return int(quiet)
	}
	// cobra reports an unknown command as a plain error: find it again.
	if _, _, ferr := root.Find(args); ferr != nil {
		err = &usageError{ferr}
	}
	if ae := (*task.AnswerError)(nil); errors.As(err, &ae) && ae.AnsweredBy != "" {
		ae.AnsweredBy = task.Who(ae.AnsweredBy, config.UserName()) // one person, one name
	}
	hint := hintFor(err)
	// With every error, cobra returns the command that failed, or root.
	if hint == "" && exitCode(err) == exitUsage {
		hint = "run '" + c.CommandPath() + " --help' for usage"
	}
	jsonMode := f.JSON || slices.Contains(beforeDashDash(args), "--json")
	printError(f.IO.ErrOut, jsonMode, err, hint)
	return exitCode(err)
}

func beforeDashDash(args []string) []string {
	if i := slices.Index(args, "--"); i >= 0 {
		return args[:i]
	}
	return args
}

const rootLong = `bh is a git-native task tracker for AI coding agents.

Tasks live as YAML files under .bh/tasks/ in your git repository. Wherever a
command takes a task id, you may type the full id (tm-a1b2), the part after
the prefix (a1b2), or any unique prefix of either (a1).

Exit codes:
  0  success
  1  error
  2  usage error: unknown command, bad flags or arguments
  3  the worker cannot work here (no agent, no git identity, no branch to
     land on, a sandbox required that cannot run): no task touched`

func newRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "bh <command>",
		Short: "A git-native task tracker for AI coding agents",
		Long:  rootLong,
		Example: `  bh init
  bh add "Fix the login redirect" --priority P1
  bh worker
  bh list --awaiting
  bh respond a1b2 --choice Postgres`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(*cobra.Command, []string) error {
			if f.NoColor {
				f.IO.SetColor(false)
			}
			return nil
		},
	}
	root.Version = version()
	root.SetVersionTemplate("{{.Version}}")
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	// Flags' help wraps to fit 100 columns, however long their usage.
	root.SetUsageTemplate(strings.ReplaceAll(root.UsageTemplate(), ".FlagUsages ", ".FlagUsagesWrapped 100 "))
	root.PersistentFlags().BoolVar(&f.JSON, "json", false, "print machine-readable JSON (errors go to stderr as JSON too)")
	root.PersistentFlags().BoolVar(&f.NoColor, "no-color", false, "never colour the output (NO_COLOR does the same)")

	root.AddCommand(
		newCmdInit(f, nil),
		newCmdAdd(f, nil),
		newCmdUpdate(f, nil),
		newCmdClose(f, nil),
		newCmdRm(f, nil),
		newCmdReopen(f, nil),
		newCmdDefer(f, nil),
		newCmdEdit(f, nil),
		newCmdList(f, nil),
		newCmdReady(f, nil),
		newCmdShow(f, nil),
		newCmdTree(f, nil),
		newCmdRespond(f, nil),
		newCmdStop(f, nil),
		newCmdStatus(f, nil),
		newCmdLog(f, nil),
		newCmdStats(f, nil),
		newCmdWorker(f, nil),
		newCmdRunTask(f, nil),
		newCmdClaim(f, nil),
		newCmdDiff(f, nil),
		newCmdLand(f, nil),
		newCmdMCP(f, nil),
		newCmdSandboxBridge(f),
		newCmdSandboxGocache(f),
		newCmdContinue(f, nil),
		newCmdTranscript(f, nil),
		newCmdMergeFile(f, nil),
		newCmdInbox(f, nil),
		newCmdSync(f, nil),
		newCmdImport(f, nil),
		newCmdBoard(f, nil),
		newCmdDoctor(f, nil),
		newCmdServe(f, nil),
		newCmdDemo(f, nil),
		newCmdK8s(f, nil),
		newCmdCompletion(f),
	)
	return root
}
