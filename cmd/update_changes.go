package cmd

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// changes are an update's new values, checked and resolved to task ids.
type changes struct {
	title, desc, parent *string
	typ                 *task.Type
	prio                *task.Priority
	size                *task.Size
	deps, labels        *[]string
	// Human-in-the-loop settings.
	gate, humanTimeout, onTimeout *string
	human, needsReview            *bool
}

// checkFields checks the new values of the task's own fields.
func checkFields(o *UpdateOptions) (*changes, error) {
	ch := &changes{desc: o.Description, human: o.Human, needsReview: o.NeedsReview}
	var err error
	if o.Title != nil {
		t := strings.TrimSpace(*o.Title)
		if t == "" {
			return nil, usageErrorf("--title: the title cannot be empty")
		}
		ch.title = &t
	}
	if o.Type != nil {
		v, err := parseEnum("type", *o.Type, task.ParseType)
		if err != nil {
			return nil, err
		}
		ch.typ = &v
	}
	if o.Priority != nil {
		v, err := parseEnum("priority", *o.Priority, task.ParsePriority)
		if err != nil {
			return nil, err
		}
		ch.prio = &v
	}
	if o.Size != nil {
		v := task.Size("")
		if *o.Size != "" {
			if v, err = parseEnum("size", *o.Size, task.ParseSize); err != nil {
				return nil, err
			}
		}
		ch.size = &v
	}
	if o.Labels != nil {
		l := cleanLabels(*o.Labels)
		ch.labels = &l
	}
	for _, f := range []struct {
		in    *string
		check func(string) (string, error)
		out   **string
	}{{o.Gate, checkGate, &ch.gate}, {o.HumanTimeout, checkHumanTimeout, &ch.humanTimeout},
		{o.OnTimeout, checkOnTimeout, &ch.onTimeout}} {
		if f.in == nil {
			continue
		}
		v, err := f.check(*f.in)
		if err != nil {
			return nil, err
		}
		*f.out = &v
	}
	return ch, nil
}

// resolveLinks resolves a new parent and new dependencies to task ids.
func (ch *changes) resolveLinks(s *store.Store, id string, o *UpdateOptions) error {
	if o.Parent == nil && o.DependsOn == nil {
		return nil
	}
	tasks, _, err := s.List()
	if err != nil {
		return err
	}
	ix := task.NewIndex(tasks)
	if o.Parent != nil {
		if ch.parent, err = checkParent(s, ix, id, *o.Parent); err != nil {
			return err
		}
	}
	if o.DependsOn != nil {
		if ch.deps, err = checkDeps(s, ix, id, *o.DependsOn); err != nil {
			return err
		}
	}
	return nil
}

// checkParent resolves a new parent and refuses one that would put the task
// under itself.
func checkParent(s *store.Store, ix task.Index, id, ref string) (*string, error) {
	p := ""
	if ref != "" {
		var err error
		if p, err = s.Resolve(ref); err != nil {
			return nil, fmt.Errorf("parent: %w", err)
		}
	}
	if p != "" && reaches(p, id, func(x string) []string {
		if t := ix[x]; t != nil && t.Parent != "" {
			return []string{t.Parent}
		}
		return nil
	}) {
		return nil, fmt.Errorf("parent: %s is %s itself or one of its subtasks", p, id)
	}
	return &p, nil
}

// checkDeps resolves new dependencies and refuses a cycle, which would keep
// every task on it from ever being ready.
func checkDeps(s *store.Store, ix task.Index, id string, refs []string) (*[]string, error) {
	var nonEmpty []string
	for _, r := range refs {
		if strings.TrimSpace(r) != "" {
			nonEmpty = append(nonEmpty, r)
		}
	}
	deps, err := resolveAll(s, "depends-on", nonEmpty)
	if err != nil {
		return nil, err
	}
	for _, d := range deps {
		if reaches(d, id, func(x string) []string {
			if t := ix[x]; t != nil {
				return t.DependsOn
			}
			return nil
		}) {
			return nil, fmt.Errorf("depends-on: %s cannot depend on %s: that would be a cycle", id, d)
		}
	}
	return &deps, nil
}

// reaches reports whether following next from start arrives at target.
// It visits each id once, so cycles in the data cannot hang it.
func reaches(start, target string, next func(string) []string) bool {
	seen := map[string]bool{}
	for stack := []string{start}; len(stack) > 0; {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == target {
			return true
		}
		if !seen[x] {
			seen[x] = true
			stack = append(stack, next(x)...)
		}
	}
	return false
}

// apply writes the changes into t and names the fields that changed.
func (ch *changes) apply(t *task.Task) []string {
	var c []string
	set(&c, "title", &t.Title, ch.title)
	set(&c, "description", &t.Description, ch.desc)
	set(&c, "type", &t.Type, ch.typ)
	set(&c, "priority", &t.Priority, ch.prio)
	set(&c, "size", &t.Size, ch.size)
	set(&c, "parent", &t.Parent, ch.parent)
	setList(&c, "dependsOn", &t.DependsOn, ch.deps)
	setList(&c, "labels", &t.Labels, ch.labels)
	set(&c, "gate", &t.Gate, ch.gate)
	if ch.human != nil && (t.Human == nil || *t.Human != *ch.human) {
		v := *ch.human
		t.Human = &v
		c = append(c, "human")
	}
	set(&c, "humanTimeout", &t.HumanTimeout, ch.humanTimeout)
	set(&c, "onTimeout", &t.OnTimeout, ch.onTimeout)
	set(&c, "needsReview", &t.NeedsReview, ch.needsReview)
	return c
}
