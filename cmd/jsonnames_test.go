package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// jsonNames is the vocabulary of bh's JSON output, read from JSON.md: its
// keys.
type jsonNames struct {
	keys map[string]bool
}

var (
	namesRow  = regexp.MustCompile("^\\| `((?:[^`]+`, `)*[^`]+)` \\|")
	camelCase = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)
)

// readJSONNames parses the table of JSON.md's section "Keys".
func readJSONNames() (*jsonNames, error) {
	f, err := os.Open("JSON.md")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n := &jsonNames{keys: map[string]bool{}}
	section := ""
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = h
			continue
		}
		if m := namesRow.FindStringSubmatch(line); section == "Keys" && m != nil {
			for k := range strings.SplitSeq(m[1], "`, `") {
				if n.keys[k] {
					return nil, fmt.Errorf("JSON.md lists %q twice", k)
				}
				n.keys[k] = true
			}
		}
	}
	return n, nil
}

// check walks v and reports each key outside the vocabulary, and each key
// that is not camelCase.
func (n *jsonNames) check(v any, at string, bad map[string]bool) {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			n.check(e, at+"[]", bad)
		}
	case map[string]any:
		for k, e := range v {
			where := at + "." + k
			if !n.keys[k] {
				bad[where+": not in JSON.md"] = true
			}
			if !camelCase.MatchString(k) {
				bad[where+": not camelCase"] = true
			}
			n.check(e, where, bad)
		}
	}
}

// jsonNamesCmd is the script command jsonnames FILE...: each file holds
// one JSON value or JSON lines, bh's output, checked against JSON.md.
func jsonNamesCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: jsonnames FILE...")
	}
	names, err := readJSONNames()
	ts.Check(err)
	// A key spelled two ways: equal but for case and punctuation.
	spelled := map[string][]string{}
	for k := range names.keys {
		fold := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k))
		spelled[fold] = append(spelled[fold], k)
	}
	for _, ks := range spelled {
		if len(ks) > 1 {
			ts.Fatalf("JSON.md spells one key two ways: %v", ks)
		}
	}
	bad := map[string]bool{}
	for _, file := range args {
		dec := json.NewDecoder(strings.NewReader(ts.ReadFile(file)))
		values := 0
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				ts.Fatalf("%s: %v", file, err)
			}
			names.check(v, file, bad)
			values++
		}
		if values == 0 {
			ts.Fatalf("%s holds no JSON", file)
		}
	}
	if len(bad) > 0 {
		ts.Fatalf("keys against JSON.md:\n  %s", strings.Join(slices.Sorted(maps.Keys(bad)), "\n  "))
	}
}
