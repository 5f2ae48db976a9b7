package task

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// TextMerge merges three texts line by line, marking with git's conflict
// markers (named ours, base and theirs) the lines changed on both sides.
type TextMerge func(ours, base, theirs []byte) ([]byte, error)

// MergeFiles merges two versions of a task file from their common base,
// field by field: a field changed on one side takes that side's value,
// updatedAt takes the later one, and history and questions are the union
// of both sides, in time order. Fields changed on both sides differently
// are real conflicts: the result holds git's conflict markers around
// exactly those, and conflict is true; except two answers to one question
// (settleAnswers), where the earlier stands. ours' comments and order are
// kept. text marks the clashing lines (worker/git.MergeText: task runs no
// git).
func MergeFiles(base, ours, theirs []byte, text TextMerge) (out []byte, conflict bool, err error) {
	b, o, t, err := mappings(base, ours, theirs)
	if err != nil {
		return nil, false, err
	}
	merged, clashes := mergeFields(b, o, t)
	clashes = settleAnswerClashes(merged, clashes, b, o, t)
	clashes = settleRun(merged, clashes, b, o, t)
	oursOut, err := emit(o, merged)
	if err != nil || len(clashes) == 0 {
		return oursOut, false, err
	}
	return markClashes(oursOut, merged, clashes, b, o, t, text)
}

// mergeFields merges field by field and returns the fields changed on both
// sides differently, which take ours' value for now.
func mergeFields(b, o, t *yaml.Node) (merged map[string]*yaml.Node, clashes []string) {
	merged = map[string]*yaml.Node{}
	for _, key := range keysOf(o, t) {
		bv, ov, tv := valueOf(b, key), valueOf(o, key), valueOf(t, key)
		switch {
		case key == "history" || key == "questions":
			merged[key] = unionList(ov, tv)
		case key == "updatedAt" && ov != nil && tv != nil:
			merged[key] = later(ov, tv)
		case equal(ov, tv), equal(tv, bv):
			merged[key] = ov
		case equal(ov, bv):
			merged[key] = tv
		default:
			merged[key] = ov
			clashes = append(clashes, key)
		}
	}
	return merged, clashes
}

// settleAnswerClashes resolves the clashes of two clones answering one
// question: no conflict, the side whose answer stands has the fields
// answering changed. It returns the other clashes.
func settleAnswerClashes(merged map[string]*yaml.Node, clashes []string, b, o, t *yaml.Node) []string {
	win := settleAnswers(merged, b, o, t)
	if win == fromBoth {
		return clashes
	}
	var rest []string
	for _, k := range clashes {
		switch {
		case !answerKeys[k]:
			rest = append(rest, k)
		case win == fromTheirs:
			merged[k] = valueOf(t, k)
		}
	}
	return rest
}

// markClashes text-merges three renderings that differ only in the
// clashing fields, so that git marks exactly those.
func markClashes(oursOut []byte, merged map[string]*yaml.Node, clashes []string, b, o, t *yaml.Node,
	text TextMerge) (out []byte, conflict bool, err error) {
	side := func(m *yaml.Node) map[string]*yaml.Node {
		alt := map[string]*yaml.Node{}
		for k, v := range merged {
			alt[k] = v
		}
		for _, k := range clashes {
			alt[k] = valueOf(m, k)
		}
		return alt
	}
	theirsOut, err := emit(o, side(t))
	if err != nil {
		return nil, false, err
	}
	baseOut, err := emit(o, side(b))
	if err != nil {
		return nil, false, err
	}
	out, err = text(oursOut, baseOut, theirsOut)
	return out, true, err
}

// runKeys are the fields a worker writes about its run of the  Two
// machines' workers (or a worker and a recovery) can change them in the
// same round, a session id each, say: bh's bookkeeping, not a human's
// conflict. Where any of them clash, the side that acted last (the latest
// event in its history of the round) has them all, so that state, lease
// and session stay one run's; the other side's run stays in the merged
// history. On a tie, ours.
var runKeys = map[string]bool{"state": true, "lease": true, "sessionId": true, "agent": true,
	"summary": true, "details": true, "issues": true, "question": true, "questionContext": true}

// settleRun resolves the clashes among runKeys and returns the others:
// fields a human changed on both sides, which stay conflicts.
func settleRun(merged map[string]*yaml.Node, clashes []string, b, o, t *yaml.Node) []string {
	isRun := func(k string) bool { return runKeys[k] }
	if !slices.ContainsFunc(clashes, isRun) {
		return clashes
	}
	last := func(m *yaml.Node) string { // the side's latest event of its own in this round
		at := ""
		if h := valueOf(m, "history"); h != nil {
			for _, e := range h.Content {
				if !contains(valueOf(b, "history"), e) && scalarOf(e, "at") > at {
					at = scalarOf(e, "at")
				}
			}
		}
		return at
	}
	win := o
	if last(t) > last(o) {
		win = t
	}
	for k := range runKeys { // all of one run, even those only the other side changed
		merged[k] = valueOf(win, k)
	}
	return slices.DeleteFunc(clashes, isRun)
}

func mappings(docs ...[]byte) (b, o, t *yaml.Node, err error) {
	var out []*yaml.Node
	for i, d := range docs {
		var n yaml.Node
		if err := yaml.Unmarshal(d, &n); err != nil {
			return nil, nil, nil, fmt.Errorf("merge: %s: %w", []string{"base", "ours", "theirs"}[i], err)
		}
		switch {
		case len(n.Content) == 0:
			out = append(out, &yaml.Node{Kind: yaml.MappingNode}) // added on both sides: no base
		case n.Content[0].Kind != yaml.MappingNode:
			return nil, nil, nil, errors.New("merge: not a task file")
		default:
			out = append(out, n.Content[0])
		}
	}
	return out[0], out[1], out[2], nil
}

// keysOf lists the keys of ours in order, then those only theirs has.
func keysOf(o, t *yaml.Node) []string {
	var keys []string
	seen := map[string]bool{}
	for _, m := range []*yaml.Node{o, t} {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if k := m.Content[i].Value; !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func equal(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	return sameValue(a, b)
}

func later(a, b *yaml.Node) *yaml.Node {
	if b.Value > a.Value { // RFC 3339 in UTC sorts as time does
		return b
	}
	return a
}

// unionList is every entry of both sides' lists, each once, in time order
// (by their "at" or "askedAt"), entries of ours first on a tie.
func unionList(o, t *yaml.Node) *yaml.Node {
	var items []*yaml.Node
	for _, l := range []*yaml.Node{o, t} {
		if l == nil || l.Kind != yaml.SequenceNode {
			continue
		}
		for _, it := range l.Content {
			if !slices.ContainsFunc(items, func(have *yaml.Node) bool { return sameValue(have, it) }) {
				items = append(items, it)
			}
		}
	}
	stamp := func(n *yaml.Node) string { return cmp.Or(scalarOf(n, "at"), scalarOf(n, "askedAt")) }
	slices.SortStableFunc(items, func(a, b *yaml.Node) int { return strings.Compare(stamp(a), stamp(b)) })
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

func scalarOf(m *yaml.Node, key string) string {
	if v := valueOf(m, key); v != nil {
		return v.Value
	}
	return ""
}

// emit renders ours' mapping with the merged values.
func emit(ours *yaml.Node, vals map[string]*yaml.Node) ([]byte, error) {
	upd := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range keysOfMap(ours, vals) {
		if v := vals[k]; v != nil {
			upd.Content = append(upd.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, v)
		}
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: append([]*yaml.Node(nil), ours.Content...)}
	mergeMapping(doc, upd)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

func keysOfMap(ours *yaml.Node, vals map[string]*yaml.Node) []string {
	keys := keysOf(ours, &yaml.Node{})
	rest := slices.DeleteFunc(slices.Sorted(maps.Keys(vals)), func(k string) bool { return slices.Contains(keys, k) })
	return append(keys, rest...)
}
