package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTaskPromptCarriesContext(t *testing.T) {
	d := Data{ID: "tm-ab12", Title: "Add login", Description: "Use OAuth.", Type: "code", Priority: "P1",
		Parent: &Ref{ID: "tm-p", Title: "Auth epic"},
		Deps:   []Dep{{ID: "tm-d", Title: "Schema", Summary: "added users table"}}}
	for _, typ := range Types {
		d.Type = typ
		got, err := Set{}.Task(d)
		if err != nil {
			t.Fatal(typ, err)
		}
		for _, want := range []string{"needs_input", "Ask instead of guessing", "tm-ab12: Add login", "Type: " + typ,
			"Use OAuth.", "tm-p: Auth epic", "tm-d: Schema — added users table"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s prompt lacks %q:\n%s", typ, want, got)
			}
		}
	}
}

func TestUnknownTypeIsAnError(t *testing.T) {
	if _, err := (Set{}).Task(Data{Type: "poetry"}); err == nil || !strings.Contains(err.Error(), "poetry") {
		t.Fatalf("want error naming the type, got %v", err)
	}
}

func TestResumeListsEveryRound(t *testing.T) {
	got, err := Set{}.Resume(Data{ID: "tm-x", Title: "T", Rounds: []Round{
		{Question: "Which DB?", Answer: "Postgres"}, {Header: "Auth", Question: "OAuth or SAML?", Answer: "OAuth"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Human Response to Your Question", "Question 1", "Which DB?", "Answer: Postgres",
		"Question 2 (Auth)", "OAuth or SAML?", "Answer: OAuth"} {
		if !strings.Contains(got, want) {
			t.Errorf("resume lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Reviewer feedback") {
		t.Error("feedback section without feedback")
	}
}

func TestOverrideWins(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "docs.md"), []byte("DOCS {{.Title}}"), 0o644)
	got, err := Set{Dir: dir}.Task(Data{Type: "docs", Title: "Readme"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "DOCS Readme") || !strings.Contains(got, "needs_input") {
		t.Fatalf("override not used or preamble lost:\n%s", got)
	}
	os.WriteFile(filepath.Join(dir, "code.md"), []byte("{{.Nope"), 0o644)
	if _, err := (Set{Dir: dir}).Task(Data{Type: "code"}); err == nil || !strings.Contains(err.Error(), "prompt code") {
		t.Fatalf("broken override: want a parse error naming it, got %v", err)
	}
}

// Every type's prompt carries when to ask, with good and bad questions,
// from the one partial (asking.md); each type has a good example of its own.
func TestEveryTypeTeachesAsking(t *testing.T) {
	seen := map[string]string{}
	for _, typ := range Types {
		got, err := Set{}.Task(Data{ID: "tm-x", Title: "T", Type: typ})
		if err != nil {
			t.Fatal(typ, err)
		}
		for _, want := range []string{"## Ask instead of guessing", "## A good question", "Good:\n- ", "Bad:\n- \"What should I do?\""} {
			if strings.Count(got, want) != 1 {
				t.Errorf("%s prompt holds %q %d times:\n%s", typ, want, strings.Count(got, want), got)
			}
		}
		good, _, _ := strings.Cut(got[strings.Index(got, "Good:\n- ")+len("Good:\n- "):], "\n")
		if other, ok := seen[good]; ok {
			t.Errorf("%s and %s share their first good example %q", typ, other, good)
		}
		seen[good] = typ
	}
	c, err := Set{}.Contract(Data{Type: "code"})
	if err != nil || !strings.Contains(c, "## Ask instead of guessing") {
		t.Errorf("the contract lacks when to ask (%v):\n%s", err, c)
	}
}

// The user's .bh/prompts/asking.md replaces the guidance in every type, and
// a type file of theirs that leaves it out goes without it.
func TestAskingOverride(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "asking.md"), []byte(`{{define "asking"}}ASK US ABOUT {{.Title}}{{end}}`), 0o644)
	for _, typ := range Types {
		got, err := Set{Dir: dir}.Task(Data{Type: typ, Title: "Readme"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, "ASK US ABOUT Readme") || strings.Contains(got, "Ask instead of guessing") {
			t.Errorf("%s: override not used:\n%s", typ, got)
		}
	}
	os.Remove(filepath.Join(dir, "asking.md"))
	os.WriteFile(filepath.Join(dir, "test.md"), []byte("TESTS {{.Title}}"), 0o644)
	got, err := Set{Dir: dir}.Task(Data{Type: "test", Title: "Readme"})
	if err != nil || strings.Contains(got, "Ask instead of guessing") {
		t.Errorf("the user's test.md without the partial still asks (%v):\n%s", err, got)
	}
}

// An earlier round says so, and that its comments' lines are of its own
// change; this round's reads as before.
func TestResumeMarksEarlierRounds(t *testing.T) {
	got, err := Set{}.Resume(Data{ID: "tm-x", Title: "T", Rounds: []Round{
		{Question: "Approve?", Answer: "no", Earlier: true, Comments: []Comment{{Path: "a.go", Line: 9, Text: "old"}}},
		{Question: "Approve?", Answer: "no", Comments: []Comment{{Path: "a.go", Line: 2, Text: "new"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Question 1 — an earlier round, answered already\n",
		"Comments on lines of your change as it was then (its line numbers, not today's):\n- a.go, line 9: old",
		"### Question 2\n", "Comments on lines of your change:\n- a.go, line 2: new"} {
		if !strings.Contains(got, want) {
			t.Errorf("resume lacks %q:\n%s", want, got)
		}
	}
}
