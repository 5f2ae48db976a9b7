package cmd

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/cmd/board"
	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/spf13/cobra"
)

type RespondOptions struct {
	base
	Editor    func() string
	Picker    func(*IOStreams) picker
	ID        string
	Answer    string
	HasAnswer bool // an answer argument was given ("-" means stdin)
	Edit      bool
	Yes, No   bool
	Choices   []string
	Comments  []string // --comment PATH:LINE=TEXT
	Other     string
	HasOther  bool
	Question  string // --question N|ID
	Repo      string // --repo PATH|NAME: answer in another repository
	Template  string
	All       bool
	// wordsInline asks questions in words on the picker's one line (bh
	// board), not in the editor.
	wordsInline bool
	by          string // who answers, in the history: "board", or "human" when empty
	// review (bh board) takes the answers given on the picker instead of
	// saving them: it saves them with save, at once or after its undo window.
	review board.Review
}

// decided reports whether flags carry a decision (approval or choice).
func (o *RespondOptions) decided() bool {
	return o.Yes || o.No || len(o.Choices) > 0 || o.HasOther
}

const respondLong = `Answer what a task that is awaiting_input asks. The agent may ask several
questions at once, each of one type:

  approval  yes or no:          --yes, or --no "feedback for the agent"
  choice    among its options:  --choice LABEL (repeat it where several may be
                                picked), or --other TEXT in your own words
  freeform  in words:           the answer argument, "-" to read it from stdin,
                                --edit, or --template NAME

A planning run's plan (plan: true) is an approval: --yes carries it out as
it is, --edit opens it in your editor and approves it as you leave it, --no
"feedback" sends it back to planning.

Text given beside --yes, --no or --choice is a comment on that decision: for
a rejected approval gate, the reviewer's feedback. With --no, --comment
PATH:LINE=TEXT also comments on one line of a file of the change (bh diff
shows it), as many times as you like; the agent gets each with its file
and line. A yes lands the change as it is, so it takes no line comments.
When several questions wait, each flag goes to the question of its type;
when that is not clear, say which with --question N (as bh status numbers
them) or --question ID.
A task tried by several attempts side by side asks which one lands:
--pick K lands attempt K, --pick none sends the answer text to every
attempt, each resumed in its own session.
Questions left unanswered keep the task waiting. Once every one is answered
the task is open again, and the worker resumes the agent's session with
your answers.

On a terminal, with no answer given, bh asks each question in turn: a picker
for approvals and choices ("Other…" lets you type your own; after a choice or
a yes you may add a comment for the agent, after a no your feedback), your
editor for questions in words (write the answer below the marker line). ACCESSIBLE=1
turns the picker into plain numbered prompts. --all walks every waiting task
in priority order; an empty answer skips a task.

An answer that starts with "-" (a list, "--force is fine") goes after --,
which ends the flags: bh respond a1b2 -- "--force is fine", or
bh respond a1b2 --no -- "--force was wrong"; or give it on stdin with "-".

Templates are answers you give often, kept as .bh/templates/<name>.md.
--template NAME sends one; with --edit, or on a terminal, it opens in your
editor first so that you can change it.`

func newCmdRespond(f *Factory, runF func(*RespondOptions) error) *cobra.Command {
	opts := &RespondOptions{}
	var pick string
	c := &cobra.Command{
		Use:   "respond {<id> [<answer> | -] | --all}",
		Short: "Answer the questions a task is waiting on",
		Long:  respondLong,
		Example: `  bh respond a1b2 "Use PostgreSQL"
  git diff | bh respond a1b2 -
  bh respond a1b2 --yes
  bh respond a1b2 --no "the migration needs a rollback step"
  bh respond a1b2 --no "close to it" --comment db/migrate.go:41="roll back here too"
  bh respond a1b2 --choice GitHub --choice Google
  bh respond a1b2 --question 2 --other "neither: use GitLab"
  bh respond a1b2 -- "--force is fine here"
  bh respond a1b2 --template lgtm
  bh respond a1b2 --pick 2
  bh respond a1b2 --pick none "each of you: keep the old API"
  bh respond a1b2 --edit          # a plan: approve it as you edit it
  bh respond --all`,
		Args:              argsRange(0, 2, "task id, then the answer"),
		ValidArgsFunction: completeIDs(f, 1, func(t *task.Task) bool { return t.State == task.AwaitingInput }),
		RunE: func(c *cobra.Command, args []string) error {
			opts.base, opts.Editor, opts.Picker = f.base(), f.Editor, f.Picker
			opts.ID, opts.Answer, opts.HasAnswer = argAt(args, 0), argAt(args, 1), len(args) == 2
			opts.HasOther = c.Flags().Changed("other")
			if pick != "" { // the pick among attempts is a choice question
				opts.Choices = append(opts.Choices, pick)
			}
			return runWith(runF, respondRun, opts)
		},
	}
	c.SetFlagErrorFunc(answerAsFlags)
	fl := c.Flags()
	fl.BoolVarP(&opts.Edit, "edit", "e", false, "write the answer in your editor")
	fl.BoolVarP(&opts.Yes, "yes", "y", false, "approve (an approval question)")
	fl.BoolVarP(&opts.No, "no", "n", false, "reject (an approval question); the answer text is your feedback")
	fl.StringArrayVar(&opts.Comments, "comment", nil,
		"with --no, comment on a line of the change: `PATH:LINE=TEXT` (repeatable)")
	fl.StringArrayVarP(&opts.Choices, "choice", "c", nil, "pick the option with this `LABEL` (a choice question; repeatable)")
	fl.StringVar(&pick, "pick", "", "pick attempt `K` of a task tried side by side (attempts: N) to land; none: none of them, "+
		"the answer text your feedback to every attempt")
	fl.StringVar(&opts.Other, "other", "", "answer a choice question in your own words: `TEXT`")
	fl.StringVarP(&opts.Question, "question", "q", "", "answer only question `N|ID`, by its number or id")
	fl.StringVarP(&opts.Template, "template", "t", "", "answer with .bh/templates/`NAME`.md")
	fl.BoolVarP(&opts.All, "all", "a", false, "answer every waiting task in turn, on a terminal")
	fl.StringVar(&opts.Repo, "repo", "", "answer in the repository at `PATH` (or registered under that name; see bh inbox)")
	_ = c.RegisterFlagCompletionFunc("choice", completeChoices(f, opts))
	return c
}

// answerAsFlags explains the flag error of an answer that starts with "-"
// (a list, a diff, "--force is fine"): cobra reads it as flags. A lone
// unknown --word may be a mistyped flag as well: it keeps cobra's words,
// with the hint.
func answerAsFlags(_ *cobra.Command, err error) error {
	const hint = `an answer that starts with "-" goes after --: bh respond <id> -- "--your answer"`
	if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		if !strings.ContainsAny(name, " \t\n") {
			return withHint(&usageError{err}, "bh respond --help lists the flags; "+hint)
		}
		return withHint(usageErrorf("%q reads as a flag, not as your answer", firstLine("--"+name)), hint)
	}
	msg, arg, ok := strings.Cut(err.Error(), " in -")
	if !ok || !strings.HasPrefix(msg, "unknown shorthand flag") || !strings.ContainsAny(arg, " \t\n") {
		return &usageError{err}
	}
	return withHint(usageErrorf("%q reads as flags, not as your answer", firstLine("-"+arg)), hint)
}

func respondRun(opts *RespondOptions) error {
	if err := opts.inRepo(); err != nil {
		return err
	}
	if opts.All {
		return respondAll(opts)
	}
	if err := checkRespondFlags(opts); err != nil {
		return err
	}
	s, t, err := opts.load(opts.ID)
	if err != nil {
		return err
	}
	late, err := t.Answerable()
	if err != nil { // before anyone writes an answer in vain
		return notAwaiting(t, opts.Question)
	}
	t = late // a late answer's questions wait again
	qs, err := targets(t, opts.Question)
	if err != nil {
		return err
	}
	rep, err := opts.reply(s, t, qs)
	if err != nil {
		return err
	}
	if len(rep.answers) == 0 {
		rep.draft.remove()
		return errEmpty
	}
	if opts.review != nil {
		return opts.review(t, rep.answers, func(io *IOStreams) error {
			b := opts.base
			b.IO = io
			_, err := saveAnswers(b, s, t, rep)
			return err
		})
	}
	t, err = saveAnswers(opts.base, s, t, rep)
	if err != nil {
		return err
	}
	return opts.result(t)
}

// reply asks the questions on the terminal, or reads the answers the
// flags give. Left midway, it keeps the answers given (keepGiven), or
// hands them to the board's review.
func (opts *RespondOptions) reply(s *store.Store, t *task.Task, qs []task.Question) (*reply, error) {
	if err := planFlags(opts, t, qs); err != nil {
		return nil, err
	}
	if opts.decided() || opts.HasAnswer || !opts.IO.IsStdinTTY {
		return fromFlags(opts, s, t, qs)
	}
	rep, err := askTask(opts, s, t, qs, len(qs) > 1)
	if !errors.Is(err, ui.ErrAborted) {
		return rep, err
	}
	if opts.review == nil || rep == nil {
		return nil, keepGiven(opts.base, s, t, rep, err)
	}
	return rep, nil // the board's review saves them as any
}

// inRepo points opts at the store of the repository --repo names, if any.
func (opts *RespondOptions) inRepo() error {
	if opts.Repo == "" {
		return nil
	}
	dir, err := registeredRepo(opts.Repo)
	if err != nil {
		return err
	}
	opts.Store = func() (*store.Store, error) {
		s, err := store.Find(dir)
		if err == nil {
			s.Now = opts.Now
		}
		return s, err
	}
	return nil
}

// keepGiven saves the answers given before the human left the picker, and
// says so; the questions left still wait.
func keepGiven(b base, s *store.Store, t *task.Task, rep *reply, cause error) error {
	if rep == nil || len(rep.answers) == 0 {
		return fmt.Errorf("%w: nothing was changed", cause)
	}
	if _, err := saveAnswers(b, s, t, rep); err != nil {
		return fmt.Errorf("%w, and the answers given could not be saved: %v", cause, err)
	}
	return fmt.Errorf("%w: the %d answer(s) given are saved; the other questions still wait", cause, len(rep.answers))
}

// wrote reports whether an answer in words is given: as text, in the
// editor or from a template.
func (o *RespondOptions) wrote() bool {
	return o.HasAnswer || o.Edit || o.Template != ""
}

// checkRespondFlags refuses flags that do not go together, before anything
// is read.
func checkRespondFlags(o *RespondOptions) error {
	switch {
	case o.ID == "":
		return usageErrorf("missing task id")
	case o.Yes && o.No:
		return usageErrorf("--yes and --no cannot be used together")
	case o.Edit && o.HasAnswer:
		return usageErrorf("give the answer or --edit, not both")
	case o.Template != "" && o.HasAnswer:
		return usageErrorf("give the answer or --template, not both")
	case o.HasOther && o.Other == "":
		return usageErrorf("--other needs your words")
	case o.HasOther && !o.Yes && !o.No && o.wrote():
		return usageErrorf("--other already holds your words: give no answer text beside it")
	}
	return nil
}

// notAwaiting says why t takes no answer: the question was answered
// already (by whom, when), the task moved on since its question timed
// out, or it asks nothing.
func notAwaiting(t *task.Task, qid string) error {
	var le *task.LateError
	if _, err := t.Answerable(); errors.As(err, &le) {
		return withHint(err, "bh show "+t.ID+" shows what happened since")
	}
	if err := t.Answered(qid); err != nil {
		return withHint(err, "bh show "+t.ID+" shows the answer")
	}
	return withHint(&task.NotAwaitingError{ID: t.ID, State: t.State},
		"bh list --awaiting shows the tasks waiting for an answer")
}

// completeChoices completes bh respond <id> --choice with the option labels
// of the choice questions the task waits on (only question N with
// --question N), each described by its option's description. Labels
// already picked are left out, for the next --choice of a multi-select.
func completeChoices(f *Factory, o *RespondOptions) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		const none = cobra.ShellCompDirectiveNoFileComp
		if len(args) == 0 {
			return nil, none
		}
		o.Store, o.Now = f.Store, f.Now
		if err := o.inRepo(); err != nil {
			return nil, none
		}
		_, t, err := o.load(args[0])
		if err != nil {
			return nil, none
		}
		qs, err := targets(t, o.Question)
		if err != nil {
			return nil, none
		}
		var out []string
		seen := map[string]bool{}
		for _, q := range qs {
			if q.Kind() != task.ChoiceQuestion {
				continue
			}
			for _, opt := range q.Options {
				if seen[opt.Label] || slices.Contains(o.Choices, opt.Label) {
					continue
				}
				seen[opt.Label] = true
				c := opt.Label
				if opt.Description != "" {
					c += "\t" + ui.Flatten(opt.Description)
				}
				out = append(out, c)
			}
		}
		return out, none
	}
}
