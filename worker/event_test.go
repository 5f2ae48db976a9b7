package worker

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"github.com/bh-tracker/bh/worker/ending"
)

// TestEventListsAreComplete: Kinds and Outcomes, from which bh worker
// --help documents the --json contract, hold every constant event.go
// and ending/outcome.go declare, so a new kind or outcome cannot go
// undocumented.
func TestEventListsAreComplete(t *testing.T) {
	t.Parallel()
	consts := map[string][]string{}
	for _, name := range []string{"event.go", "ending/outcome.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		eachConst(f, consts)
	}
	var kinds, outcomes []string
	for _, k := range Kinds {
		kinds = append(kinds, string(k))
	}
	for _, o := range ending.Outcomes {
		outcomes = append(outcomes, string(o))
	}
	for typ, list := range map[string][]string{"Kind": kinds, "Outcome": outcomes} {
		want := slices.Sorted(slices.Values(consts[typ]))
		got := slices.Sorted(slices.Values(list))
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%ss list %v, the files declare %v", typ, got, want)
		}
	}
}

// eachConst adds f's typed string constants to consts, by type.
func eachConst(f *ast.File, consts map[string][]string) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			typ, ok := v.Type.(*ast.Ident)
			if !ok || len(v.Values) != 1 {
				continue
			}
			lit, ok := v.Values[0].(*ast.BasicLit)
			if !ok {
				continue
			}
			s, _ := strconv.Unquote(lit.Value)
			consts[typ.Name] = append(consts[typ.Name], s)
		}
	}
}
