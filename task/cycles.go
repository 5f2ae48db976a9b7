package task

import (
	"slices"
	"strings"
)

// Cycles finds the dependsOn cycles among tasks (which a hand edit can
// make): the tasks on them are never ready. Each cycle is listed once, as
// ids from its smallest, in dependency order.
func Cycles(tasks []*Task) [][]string {
	// Only a task with dependencies can be on a cycle: the others, most
	// of a store, are left out of the walk.
	deps := make(map[string][]string, len(tasks)/4)
	var ids []string
	for _, t := range tasks {
		if len(t.DependsOn) > 0 {
			deps[t.ID] = t.DependsOn
			ids = append(ids, t.ID)
		}
	}
	const (
		unseen = iota
		onPath
		done
	)
	mark := make(map[string]int, len(deps))
	var path []string
	var out [][]string
	var visit func(id string)
	visit = func(id string) {
		mark[id] = onPath
		path = append(path, id)
		for _, d := range deps[id] {
			switch mark[d] {
			case onPath: // d is on the path, once: the cycle starts there
				i := slices.Index(path, d)
				out = append(out, rotate(slices.Clone(path[i:])))
			case unseen:
				if _, ok := deps[d]; ok {
					visit(d)
				}
			}
		}
		path = path[:len(path)-1]
		mark[id] = done
	}
	slices.Sort(ids) // a listing's are sorted already, and cost no more
	for _, id := range ids {
		if mark[id] == unseen {
			visit(id)
		}
	}
	return out
}

// rotate starts a cycle at its smallest id, so that each reads one way.
func rotate(c []string) []string {
	first := slices.Index(c, slices.Min(c))
	return append(c[first:], c[:first]...)
}

// CycleOf is the cycle id is on, or nil.
func CycleOf(cycles [][]string, id string) []string {
	if i := slices.IndexFunc(cycles, func(c []string) bool { return slices.Contains(c, id) }); i >= 0 {
		return cycles[i]
	}
	return nil
}

// CycleText is a dependency cycle as people read it: a -> b -> a.
func CycleText(c []string) string {
	return "dependency cycle " + strings.Join(append(c[:len(c):len(c)], c[0]), " -> ")
}
