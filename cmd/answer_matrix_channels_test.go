package cmd

import (
	"os"
	"path/filepath"
)

// The answer matrix's channels that run bh respond.

// args is a channel that answers with bh respond's arguments alone.
func args(a ...string) func(*matrix, string) given {
	return func(m *matrix, id string) given { return m.respond(id, "", nil, a...) }
}

// piped answers with stdin piped into bh respond.
func piped(stdin string, a ...string) func(*matrix, string) given {
	return func(m *matrix, id string) given { return m.respond(id, stdin, nil, a...) }
}

// edited answers in the editor, which writes text below the marker.
func edited(text string, a ...string) func(*matrix, string) given {
	return func(m *matrix, id string) given {
		m.editor(text)
		return m.respond(id, "", nil, a...)
	}
}

// picked answers on a terminal's picker, as ACCESSIBLE=1's numbered
// prompts fed from lines, and the editor for questions in words.
func picked(lines, words string, a ...string) func(*matrix, string) given {
	return func(m *matrix, id string) given {
		m.editor(words)
		return m.respond(id, lines, []string{"BH_FORCE_TTY=1", "ACCESSIBLE=1"}, append([]string{"ID"}, a...)...)
	}
}

// inTurn gives several answers, one bh respond after another.
func inTurn(steps ...func(*matrix, string) given) func(*matrix, string) given {
	return func(m *matrix, id string) given {
		var g given
		for _, s := range steps {
			if g = s(m, id); g.code != 0 {
				return g
			}
		}
		return g
	}
}

// templated answers with a response template holding text.
func templated(text string, a ...string) func(*matrix, string) given {
	return func(m *matrix, id string) given {
		os.MkdirAll(filepath.Join(m.dir, ".bh", "templates"), 0o755)
		writeE2E(m.t, m.dir, ".bh/templates/matrix.md", text)
		return m.respond(id, "", nil, a...)
	}
}
