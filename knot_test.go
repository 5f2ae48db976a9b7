package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestKnotEdges prints the largest knot of one package and, for each of
// its files, the names it takes from the others: where to cut a cycle.
//
//	KNOT_PKG=./worker go test -run KnotEdges -v .
func TestKnotEdges(t *testing.T) {
	pkg := os.Getenv("KNOT_PKG")
	if pkg == "" {
		t.Skip("KNOT_PKG names the package to show")
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports |
		packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, pkg)
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("%s does not load: %v", pkg, err)
	}
	p := pkgs[0]
	knot := largestKnot(p)
	edges := map[string]map[string][]string{}
	for id, obj := range p.TypesInfo.Uses {
		if obj == nil || obj.Pkg() != p.Types || !obj.Pos().IsValid() {
			continue
		}
		from, to := filepath.Base(fileOf(p.Fset, id.Pos())), filepath.Base(fileOf(p.Fset, obj.Pos()))
		if from == to || !slices.Contains(knot, from) || !slices.Contains(knot, to) {
			continue
		}
		if edges[from] == nil {
			edges[from] = map[string][]string{}
		}
		if !slices.Contains(edges[from][to], obj.Name()) {
			edges[from][to] = append(edges[from][to], obj.Name())
		}
	}
	fmt.Println(len(knot), "files all reach each other in", p.PkgPath)
	for _, f := range knot {
		fmt.Println(f)
		tos := make([]string, 0, len(edges[f]))
		for to := range edges[f] {
			tos = append(tos, to)
		}
		sort.Strings(tos)
		for _, to := range tos {
			fmt.Printf("    -> %s: %v\n", to, edges[f][to])
		}
	}
}
