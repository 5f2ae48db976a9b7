package cmd

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type UpdateOptions struct {
	base
	ID string
	// Only the fields whose flags were given are set.
	Title, Description, Type, Priority, Size, Parent *string
	DependsOn, Labels                                *[]string
	Gate, HumanTimeout, OnTimeout                    *string
	Human, NeedsReview                               *bool
}

func newCmdUpdate(f *Factory, runF func(*UpdateOptions) error) *cobra.Command {
	opts := &UpdateOptions{}
	var v struct{ title, desc, typ, prio, size, parent string }
	var deps, labels []string
	var h hitlFlags
	var review bool
	c := &cobra.Command{
		Use:   "update <id>",
		Short: "Change a task's fields",
		Long: `Change the fields given as flags and record the change in the task's history.
--depends-on and --label replace the whole list; give "" to empty it, and
--parent "" to detach the task from its parent. --gate "", --human-timeout ""
and --on-timeout "" go back to the config's default.`,
		Example: `  bh update a1b2 --priority P0 --label urgent --label backend
  bh update a1b2 --gate approval --on-timeout remind --human-timeout 2h
  bh update a1b2 --needs-review=false`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(c *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			opts.Title, opts.Description = flagGiven(c, "title", &v.title), flagGiven(c, "description", &v.desc)
			opts.Type, opts.Priority = flagGiven(c, "type", &v.typ), flagGiven(c, "priority", &v.prio)
			opts.Size, opts.Parent = flagGiven(c, "size", &v.size), flagGiven(c, "parent", &v.parent)
			opts.Gate, opts.OnTimeout = flagGiven(c, "gate", &h.gate), flagGiven(c, "on-timeout", &h.onTimeout)
			opts.HumanTimeout, opts.NeedsReview = flagGiven(c, "human-timeout", &h.humanTimeout), flagGiven(c, "needs-review", &review)
			opts.DependsOn, opts.Labels = flagGiven(c, "depends-on", &deps), flagGiven(c, "label", &labels)
			var err error
			if opts.Human, err = h.humanFlag(c); err != nil {
				return err
			}
			return runWith(runF, updateRun, opts)
		},
	}
	fl := c.Flags()
	fl.StringVar(&v.title, "title", "", "new title")
	fl.StringVarP(&v.desc, "description", "d", "", "new description")
	fl.StringVar(&v.typ, "type", "", "code, design, review, test or docs")
	fl.StringVar(&v.prio, "priority", "", "P0 (most urgent) to P4")
	fl.StringVar(&v.size, "size", "", `small, medium, large, or "" for none`)
	fl.StringVar(&v.parent, "parent", "", `id of the parent task, or "" for none`)
	fl.StringArrayVar(&deps, "depends-on", nil, "id of a task that must be closed first (repeatable)")
	fl.StringArrayVar(&labels, "label", nil, "label (repeatable)")
	h.register(c, `, or "" for the config's default`)
	fl.BoolVar(&review, "needs-review", true, "mark the task for review; --needs-review=false clears the mark")
	completeEnums(c)
	completeFlagIDs(c, f, "parent", "depends-on")
	return c
}

// flagGiven is v when the flag name was given, else nil.
func flagGiven[T any](c *cobra.Command, name string, v *T) *T {
	if c.Flags().Changed(name) {
		return v
	}
	return nil
}

// errUnchanged stops store.Update from writing when nothing would change.
var errUnchanged = errors.New("unchanged")

// empty reports whether no flag asks for a change.
func (opts *UpdateOptions) empty() bool {
	return opts.Title == nil && opts.Description == nil && opts.Type == nil && opts.Priority == nil &&
		opts.Size == nil && opts.Parent == nil && opts.DependsOn == nil && opts.Labels == nil &&
		opts.Gate == nil && opts.HumanTimeout == nil && opts.OnTimeout == nil && opts.Human == nil &&
		opts.NeedsReview == nil
}

func updateRun(opts *UpdateOptions) error {
	if opts.empty() {
		return usageErrorf("nothing to update: give at least one flag, such as --title or --priority")
	}
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	ch, err := checkFields(opts)
	if err != nil {
		return err
	}
	if err := ch.resolveLinks(s, id, opts); err != nil {
		return err
	}
	now := stamp(opts.Now)
	var changed []string
	var unchanged *task.Task // the task as read, when nothing differs
	t, err := s.Update(id, func(t *task.Task) error {
		changed = ch.apply(t)
		if len(changed) == 0 {
			unchanged = t
			return errUnchanged
		}
		t.Record(now, task.Event{Kind: task.EventUpdated, By: "human", Text: "changed " + strings.Join(changed, ", ")})
		return nil
	})
	if errors.Is(err, errUnchanged) {
		fmt.Fprintf(opts.IO.ErrOut, "%s is unchanged\n", id)
		return opts.result(unchanged)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "updated %s: %s\n", id, strings.Join(changed, ", "))
	return opts.result(t)
}

// set assigns v to *dst if it differs, and notes the field's name.
func set[T comparable](changed *[]string, name string, dst *T, v *T) {
	if v != nil && *dst != *v {
		*dst = *v
		*changed = append(*changed, name)
	}
}

func setList(changed *[]string, name string, dst *[]string, v *[]string) {
	if v != nil && !slices.Equal(*dst, *v) {
		*dst = *v
		*changed = append(*changed, name)
	}
}
