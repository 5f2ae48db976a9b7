package cmd

import (
	"context"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/agent/mcp"
	"github.com/spf13/cobra"
)

type MCPOptions struct {
	base
	Ctx    context.Context
	Task   string
	Outbox string
	// Planning denies every permission prompt but the agent's questions.
	Planning bool
}

func newCmdMCP(f *Factory, runF func(*MCPOptions) error) *cobra.Command {
	opts := &MCPOptions{}
	c := &cobra.Command{
		Use:   "mcp",
		Short: "Serve bh's MCP tools to a running agent (started by the worker)",
		Long: `Serve bh's MCP tools on standard input and output for the agent working on
a task. The worker hands it to Claude Code with --mcp-config and
--permission-prompt-tool, so that:

  AskUserQuestion   the agent's typed questions become the task's questions
  permission        a tool call the mode would deny becomes an approval
  prompts           question; a yes allows that call on the next run
  ask_human         a question for the human, as a tool call
  ready_tasks,      read the tracker
  show_task
  add_task          record follow-up work, linked to the task

A question asked this way parks the run as awaiting_input whatever the
agent answers at the end. The task is $BH_TASK_ID unless --task names it.
Questions go to the run's outbox, $BH_OUTBOX unless --outbox names it:
the one folder of bh's that the agent's sandbox may write.

Exit codes:
  0  the agent closed the connection
  1  an error`,
		Example: `  bh mcp --task tm-a1b2`,
		Args:    argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx = f.base(), c.Context()
			return runWith(runF, mcpRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Task, "task", os.Getenv("BH_TASK_ID"), "the `ID` of the task the agent works on")
	c.Flags().StringVar(&opts.Outbox, "outbox", os.Getenv(mcp.OutboxEnv), "the run's outbox `folder`, where questions go")
	c.Flags().BoolVar(&opts.Planning, "planning", os.Getenv(mcp.PhaseEnv) == mcp.PhasePlan,
		"a planning run: deny every permission prompt but the agent's questions ($BH_PHASE=plan)")
	return c
}

func mcpRun(opts *MCPOptions) error {
	s, id, err := opts.resolve(opts.Task)
	if err != nil {
		return err
	}
	warn := func(msg string) { fmt.Fprintln(opts.IO.ErrOut, msg) }
	return mcp.Serve(opts.Ctx, s, id, opts.Outbox, opts.Planning, mcp.GuardedTransport(os.Stdin, os.Stdout, warn))
}
