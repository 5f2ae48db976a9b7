package task

import (
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// wideRunes undoes stashWide: placeholders back to the characters.
type wideRunes map[rune]rune

// stashWide swaps the characters beyond U+FFFF (emoji) in n's scalars for
// private-use placeholders, which yaml.v3 writes as they are: it escapes
// the wide ones (\U0001F41B), and a task file is read by people. Text that
// already holds private-use characters keeps yaml.v3's escapes.
func stashWide(n *yaml.Node) wideRunes {
	var scalars []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			scalars = append(scalars, n)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	wide := false
	for _, sc := range scalars {
		for _, r := range sc.Value {
			if r >= 0xE000 && r <= 0xF8FF {
				return nil // a placeholder could not be told apart: keep the escapes
			}
			wide = wide || r > 0xFFFF
		}
	}
	if !wide {
		return nil
	}
	w, back := wideRunes{}, map[rune]rune{}
	for _, sc := range scalars {
		sc.Value = strings.Map(func(r rune) rune {
			if r <= 0xFFFF || !unicode.IsPrint(r) {
				return r
			}
			p, ok := back[r]
			if !ok && len(back) <= 0xF8FF-0xE000 {
				p = rune(0xE000 + len(back))
				back[r], w[p], ok = p, r, true
			}
			if !ok {
				return r // more kinds of emoji than placeholders: escaped
			}
			return p
		}, sc.Value)
	}
	return w
}

// Replace puts the wide characters back in place of their placeholders.
func (w wideRunes) Replace(b []byte) []byte {
	if len(w) == 0 {
		return b
	}
	return []byte(strings.Map(func(r rune) rune {
		if o, ok := w[r]; ok {
			return o
		}
		return r
	}, string(b)))
}
