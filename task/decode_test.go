package task

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

const goodFile = `id: tm-abcd
title: Fix the parser
type: code
priority: P2
state: open
createdAt: 2025-01-02T03:04:05Z
updatedAt: 2025-01-02T03:04:05Z
`

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		name, body string
		line       int
		msg, hint  string
	}{
		{"bad yaml", "id: tm-abcd\ntitle: x\ndescription: \"never closed\nstate: open\n", 3, "found unexpected end of stream", "git checkout -- .bh/tasks/tm-abcd.yaml"},
		{"bad indent", "id: tm-abcd\ntitle: x\n  state: open\n", 3, "mapping values are not allowed", "fix the YAML"},
		{"conflict", "id: tm-abcd\ntitle: x\n<<<<<<< HEAD\nstate: open\n=======\nstate: closed\n>>>>>>> theirs\n", 3, "git conflict markers", "resolve the merge conflict"},
		{"conflict, middle only", "id: tm-abcd\ntitle: x\n=======\n", 3, "git conflict markers", "resolve the merge conflict"},
		{"unknown state", strings.Replace(goodFile, "state: open", "state: done", 1), 5, `unknown state "done"`, "bh edit"},
		{"unknown type", strings.Replace(goodFile, "type: code", "type: chore", 1), 3, `unknown type "chore"`, ""},
		{"unknown priority", strings.Replace(goodFile, "priority: P2", "priority: urgent", 1), 4, `unknown priority "urgent"`, ""},
		{"id mismatch", strings.Replace(goodFile, "id: tm-abcd", "id: tm-zzzz", 1), 1, `id "tm-zzzz" does not match the file name`, ""},
		{"id shape", "title: x\nid: ../abcd\n", 2, `id "../abcd" is not a task id`, ""},
		{"missing id", "title: x\nstate: open\n", 1, "missing id", ""},
		{"missing title", "id: tm-abcd\nstate: open\n", 1, "missing title", ""},
		{"not a mapping", "- id: tm-abcd\n", 1, "not a task", ""},
		{"empty", "", 1, "not a task", ""},
		{"bad sandbox", goodFile + "sandbox: sometimes\n", 8, `"sometimes": want one of auto, off, required`, ""},
		{"negative budget", goodFile + "budget: -2\n", 8, "-2: want an amount in USD", ""},
		{"bad schedule", goodFile + "every: fortnightly\n", 8, `"fortnightly" is not a schedule`, "bh edit"},
		{"bad cron line", goodFile + "# weekly\nevery: \"0 25 * * 1\"\n", 9, `"0 25 * * 1" is not a cron line`, ""},
		{"bad follows", goodFile + "follows: ../x\n", 8, `"../x" is not a task id`, ""},
		{"wrong type", goodFile + "labels: ui\n", 8, "cannot unmarshal !!str `ui` into []string", "fix the YAML"},
		{"bad time", strings.Replace(goodFile, "createdAt: 2025-01-02T03:04:05Z", "createdAt: yesterday", 1), 6, `createdAt: parsing time "yesterday"`, ""},
		{"bad time in history", goodFile + "history:\n- at: 2025-01-02T03:04:05Z\n  kind: created\n- at: soon\n", 8, `history: parsing time "soon"`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(".bh/tasks/tm-abcd.yaml", []byte(c.body), "tm-abcd")
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("want FileError, got %v", err)
			}
			if fe.Path != ".bh/tasks/tm-abcd.yaml" || fe.Line != c.line || !strings.Contains(fe.Msg, c.msg) || !strings.Contains(fe.Hint(), c.hint) {
				t.Fatalf("got %q (line %d), hint %q", err, fe.Line, fe.Hint())
			}
			if want := ".bh/tasks/tm-abcd.yaml:" + strconv.Itoa(c.line) + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error %q should start with %q", err, want)
			}
			if strings.Contains(fe.Msg, "yaml: line") || strings.Contains(fe.Msg, "\n") {
				t.Fatalf("message repeats the line or spans lines: %q", fe.Msg)
			}
		})
	}
}

func TestConflictMarker(t *testing.T) {
	for body, want := range map[string]int{ // the marker's line, or 0 for none
		"a\n<<<<<<< HEAD\n":       2,
		"a\n=======\n":            2,
		"a\n=======":              2,
		"a\r\n>>>>>>> theirs\r\n": 2,
		"<<<<<<<\n":               1,
		"a\n========\n":           0,
		"a\n  =======\n":          0,
		"a: <<<<<<< x\n":          0,
		"a\n<<<<<<<x\n":           0,
		"=====\n":                 0,
		"":                        0,
	} {
		got := 0
		if at := conflictMarker([]byte(body)); at >= 0 {
			got = 1 + strings.Count(body[:at], "\n")
		}
		if got != want {
			t.Errorf("%q: marker on line %d, want %d", body, got, want)
		}
	}
}

func TestDecodeGood(t *testing.T) {
	tk, err := Decode("x", []byte(goodFile+"labels: [a, b]\nunknownField: kept out\n"), "tm-abcd")
	if err != nil {
		t.Fatal(err)
	}
	want := &Task{ID: "tm-abcd", Title: "Fix the parser", Type: "code", Priority: "P2", State: Open, Labels: []string{"a", "b"},
		CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), UpdatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	if !reflect.DeepEqual(tk, want) {
		t.Fatalf("got %+v", tk)
	}
	// A description may hold lines that look like markers, indented.
	body := goodFile + "description: |\n  Heading\n  =======\n  <<<<<<< not a conflict\n"
	if _, err := Decode("x", []byte(body), ""); err != nil {
		t.Fatal(err)
	}
}
