package task

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"sync"

	"gopkg.in/yaml.v3"
)

// Render writes t as a task file, on top of base (the file as it is, or as
// the user edited it) when base reads as a mapping: the user's comments,
// key order, value styles and keys bh does not know stay, and only what
// changed is rewritten. A task file is the user's interface.
func Render(t *Task, base []byte) ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(t); err != nil {
		return nil, fmt.Errorf("encode %s: %w", t.ID, err)
	}
	out := &n
	var doc yaml.Node
	if len(base) > 0 && yaml.Unmarshal(base, &doc) == nil && len(doc.Content) == 1 &&
		doc.Content[0].Kind == yaml.MappingNode && n.Kind == yaml.MappingNode {
		mergeMapping(doc.Content[0], &n)
		out = &doc
	}
	wide := stashWide(out)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("encode %s: %w", t.ID, err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return wide.Replace(buf.Bytes()), nil
}

// taskKeys are the keys of a task file that bh writes.
var taskKeys = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, k := range YAMLKeys(reflect.TypeOf(Task{}))["task.Task"] {
		out[k] = true
	}
	return out
})

// mergeMapping makes old say what upd says, in old's order and with old's
// comments: a value that did not change keeps its node (and style), a
// changed one takes old's comments, a key of bh's that upd no longer has
// (an emptied field) goes, an unknown key stays, and a new key goes after
// the key it follows in upd.
func mergeMapping(old, upd *yaml.Node) {
	vals, order := map[string]*yaml.Node{}, []string{}
	for i := 0; i+1 < len(upd.Content); i += 2 {
		vals[upd.Content[i].Value] = upd.Content[i+1]
		order = append(order, upd.Content[i].Value)
	}
	var out []*yaml.Node
	at := map[string]int{} // key -> its index in out
	for i := 0; i+1 < len(old.Content); i += 2 {
		k, v := old.Content[i], old.Content[i+1]
		nv, ok := vals[k.Value]
		switch {
		case ok && sameValue(v, nv):
			nv = v
		case ok:
			nv.HeadComment, nv.LineComment, nv.FootComment = cmp.Or(nv.HeadComment, v.HeadComment),
				cmp.Or(nv.LineComment, v.LineComment), cmp.Or(nv.FootComment, v.FootComment)
		case taskKeys()[k.Value]:
			continue // emptied: omitted, as bh writes it
		default:
			nv = v // not bh's: kept as the user wrote it
		}
		at[k.Value] = len(out)
		out = append(out, k, nv)
	}
	for i, key := range order {
		if _, ok := at[key]; ok {
			continue
		}
		pos := 0
		for j := i - 1; j >= 0; j-- {
			if p, ok := at[order[j]]; ok {
				pos = p + 2
				break
			}
		}
		pair := []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, vals[key]}
		out = append(out[:pos], append(pair, out[pos:]...)...)
		for k, p := range at {
			if p >= pos {
				at[k] = p + 2
			}
		}
		at[key] = pos
	}
	old.Content = out
}

// sameValue reports whether two nodes hold the same data, whatever their
// style.
func sameValue(a, b *yaml.Node) bool {
	var x, y any
	if a.Decode(&x) != nil || b.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
