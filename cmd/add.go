package cmd

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type AddOptions struct {
	base
	Title       string
	Description string
	Type        string
	Priority    string
	Size        string
	Parent      string
	DependsOn   []string
	Labels      []string
	Checks      []string // commands that must pass before it lands, over the config's
	Budget      float64  // what its runs may spend in all, in USD; 0 follows the config
	Every       string   // its schedule: once it ends, the next one is made for the next time
	Attempts    int      // agents that try it side by side, the human picking one; 0 or 1: one run
	Agents      []string // the agents the attempts take in turn
	// Human-in-the-loop settings; empty (nil) follows the config.
	Gate, HumanTimeout, OnTimeout string
	Human                         *bool
	Plan                          *bool               // plan before coding; nil follows the config
	Agent                         *task.AgentSettings // nil follows the config
}

func newCmdAdd(f *Factory, runF func(*AddOptions) error) *cobra.Command {
	opts := &AddOptions{}
	var h hitlFlags
	var a agentFlags
	var plan bool
	c := &cobra.Command{
		Use:   "add <title>",
		Short: "Create a task",
		Long: `Create an open task and print its id (with --json, the whole task).
The words of the title may be given unquoted.`,
		Example: `  bh add "Add a login page" --priority P1 --label ui
  bh add Write the docs --type docs --parent tm-a1b2 --depends-on c3
  bh add "Migrate the schema" --gate approval --human-timeout 4h --on-timeout defer
  bh add "Bump the deps" --human=false
  bh add "Port the parser" --agent codex --model gpt-5-codex --dir parser
  bh add "Fix the flaky test" --check 'go test -count=3 ./store'
  bh add "Rewrite the parser" --budget 5
  bh add "Bump the deps" --every 1w
  bh add "Triage new issues" --every "0 9 * * 1"
  bh add "Speed up the parser" --attempts 3 --agents claude,codex
  bh add "Split the store package" --plan`,
		Args: argsRange(1, -1, "title"),
		RunE: func(c *cobra.Command, args []string) error {
			opts.base = f.base()
			opts.Title = strings.TrimSpace(strings.Join(args, " "))
			opts.Gate, opts.HumanTimeout, opts.OnTimeout = h.gate, h.humanTimeout, h.onTimeout
			var err error
			if opts.Human, err = h.humanFlag(c); err != nil {
				return err
			}
			if opts.Agent, err = a.settings(); err != nil {
				return err
			}
			if c.Flags().Changed("plan") {
				opts.Plan = &plan
			}
			return runWith(runF, addRun, opts)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&opts.Description, "description", "d", "", "what needs doing, in detail")
	fl.StringVar(&opts.Type, "type", "code", "kind of work: code, design, review, test or docs")
	fl.StringVar(&opts.Priority, "priority", "P2", "P0 (most urgent) to P4")
	fl.StringVar(&opts.Size, "size", "", "rough size: small, medium or large")
	fl.StringVar(&opts.Parent, "parent", "", "id of the parent task")
	fl.StringArrayVar(&opts.DependsOn, "depends-on", nil, "id of a task that must be closed first (repeatable)")
	fl.StringArrayVar(&opts.Labels, "label", nil, "label the task (repeatable)")
	fl.StringArrayVar(&opts.Checks, "check", nil, "shell command that must pass before the work lands, besides the config's checks (repeatable)")
	fl.Float64Var(&opts.Budget, "budget", 0, "what its runs may spend in all, in `USD`; past it, you are asked whether to go on (default: the config's budget)")
	fl.StringVar(&opts.Every, "every", "", "make it recur: once it lands or closes, the next one is made for the next time, by a `SCHEDULE` such as 1w, 1d, 12h or a cron line (\"0 9 * * 1\")")
	fl.IntVar(&opts.Attempts, "attempts", 0, "agents that try it side by side, each in its own worktree; you pick the one that lands")
	fl.StringSliceVar(&opts.Agents, "agents", nil, "the agents the attempts take in turn: claude, codex, command (comma-separated)")
	fl.BoolVar(&plan, "plan", false, "plan first: the agent reads and asks, read-only, and a human approves its plan before it codes (with --attempts, each attempt plans)")
	h.register(c, "")
	a.register(c)
	completeEnums(c)
	completeFlagIDs(c, f, "parent", "depends-on")
	return c
}

func addRun(opts *AddOptions) error {
	t, err := opts.newTask()
	if err != nil {
		return err
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	if opts.Parent != "" {
		if t.Parent, err = s.Resolve(opts.Parent); err != nil {
			return fmt.Errorf("parent: %w", err)
		}
	}
	if t.DependsOn, err = resolveAll(s, "depends-on", opts.DependsOn); err != nil {
		return err
	}
	if t, err = s.Create(t); err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, t)
	}
	fmt.Fprintln(opts.IO.Out, t.ID)
	return nil
}

// newTask is the task the flags describe, checked, before the store
// resolves its parent and dependencies.
func (opts *AddOptions) newTask() (*task.Task, error) {
	if opts.Title == "" {
		return nil, usageErrorf("the title is empty")
	}
	if strings.ContainsAny(opts.Title, "\r\n") {
		return nil, usageErrorf("the title must be one line: put the rest in the description (-d)")
	}
	var err error
	t := &task.Task{Title: opts.Title, Description: opts.Description, Labels: cleanLabels(opts.Labels),
		Checks: opts.Checks, Human: opts.Human, AgentSettings: opts.Agent, Budget: opts.Budget, Every: opts.Every,
		Attempts: opts.Attempts, Agents: opts.Agents, Plan: opts.Plan}
	if err := task.CheckAttempts(t.Attempts); err != nil {
		return nil, usageErrorf("--attempts: %v", err)
	}
	if err := task.CheckAgents(t.Agents); err != nil {
		return nil, usageErrorf("--agents: %v", err)
	}
	if err := task.CheckCommands(t.Checks); err != nil {
		return nil, usageErrorf("--check: %v", err)
	}
	if err := task.CheckBudget(t.Budget); err != nil {
		return nil, usageErrorf("--budget: %v", err)
	}
	if t.NotBefore, err = task.StartAt(t.Every, opts.Now().Local()); err != nil {
		return nil, usageErrorf("--every: %v", err)
	}
	if t.Type, err = parseEnum("type", opts.Type, task.ParseType); err != nil {
		return nil, err
	}
	if t.Priority, err = parseEnum("priority", opts.Priority, task.ParsePriority); err != nil {
		return nil, err
	}
	if opts.Size != "" {
		if t.Size, err = parseEnum("size", opts.Size, task.ParseSize); err != nil {
			return nil, err
		}
	}
	if t.Gate, err = checkGate(opts.Gate); err != nil {
		return nil, err
	}
	if t.HumanTimeout, err = checkHumanTimeout(opts.HumanTimeout); err != nil {
		return nil, err
	}
	if t.OnTimeout, err = checkOnTimeout(opts.OnTimeout); err != nil {
		return nil, err
	}
	return t, nil
}

// agentFlags choose and tune the agent for one task, over the config's
// agent: and its types: (task.AgentSettings).
type agentFlags struct{ s task.AgentSettings }

// agentFlagOf names the flag that sets each key of task.AgentSettings.
var agentFlagOf = map[string]string{"agent": "agent", "model": "model", "timeout": "agent-timeout",
	"permissionMode": "permission-mode", "sandbox": "sandbox", "system": "system", "dir": "dir"}

func (a *agentFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&a.s.Agent, "agent", "", "the agent that works on it: `"+strings.Join(task.AgentKinds, "|")+"`")
	fl.StringVar(&a.s.Model, "model", "", "the agent's model")
	fl.StringVar(&a.s.Timeout, "agent-timeout", "", "how long one agent run may take: `DURATION`")
	fl.StringVar(&a.s.PermissionMode, "permission-mode", "", "Claude Code's permission `MODE`: "+
		strings.Join(task.PermissionModes, ", "))
	fl.StringVar(&a.s.Sandbox, "sandbox", "", "Codex's sandbox `MODE`: "+strings.Join(task.Sandboxes, ", "))
	fl.StringVar(&a.s.System, "system", "", "instructions added to the agent's system prompt")
	fl.StringVar(&a.s.Dir, "dir", "", "the agent's working directory, relative to the repository root")
	for flag, values := range map[string][]string{"agent": task.AgentKinds, "permission-mode": task.PermissionModes,
		"sandbox": task.Sandboxes} {
		_ = c.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
	}
}

// settings are the flags' settings, validated as the config's are; nil
// when none was given.
func (a *agentFlags) settings() (*task.AgentSettings, error) {
	s := a.s
	s.Dir = strings.TrimSpace(s.Dir)
	if s.Empty() {
		return nil, nil
	}
	if key, err := s.Check(); err != nil {
		return nil, usageErrorf("--%s: %v", agentFlagOf[key], err)
	}
	return &s, nil
}
