package task_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// agree checks that the fast reader, when it takes a file, reads it as
// yaml.v3 does, and reports whether it took it.
func agree(t testing.TB, name string, b []byte, id string) bool {
	t.Helper()
	fast, ok := task.DecodeFast(b, id)
	slow, err := task.DecodeYAML("x.yaml", b, id)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("%s: the fast reader took a file yaml.v3 refuses (%v):\n%s", name, err, b)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%s: the readers disagree:\nfast %#v\nyaml %#v\n%s", name, fast, slow, b)
	}
	return true
}

// fullTask has every field set, to values task.Decode accepts.
func fullTask() *task.Task {
	var full task.Task
	n := 0
	tasktest.Fill(reflect.ValueOf(&full).Elem(), &n)
	full.ID, full.State, full.Type, full.Priority, full.Size = "tm-full1", task.Open, "code", "P1", "small"
	full.Sandbox = task.SandboxRequired
	full.Every, full.Follows = "0 9 * * 1", "tm-prev1"
	full.Attempts, full.Agents, full.Attempt = 3, []string{"claude", "codex"}, 2
	a := full.AgentSettings
	a.Agent, a.Model, a.Timeout, a.PermissionMode, a.Sandbox, a.Dir = "claude", "opus", "10m", "plan", "read-only", "sub"
	utc := func(v reflect.Value) {}
	utc = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				utc(v.Elem())
			}
		case reflect.Slice:
			for i := range v.Len() {
				utc(v.Index(i))
			}
		case reflect.Struct:
			if tm, ok := v.Addr().Interface().(*time.Time); ok {
				*tm = tm.UTC()
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					utc(v.Field(i))
				}
			}
		}
	}
	utc(reflect.ValueOf(&full).Elem())
	return &full
}

func TestDecodeFastCoversTask(t *testing.T) {
	b, err := task.Render(fullTask(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !agree(t, "full", b, "tm-full1") {
		t.Fatalf("the fast reader gives up on a file bh wrote with every field: add the new field to decodeFast\n%s", b)
	}
}

// tricky are strings yaml.v3 writes in every style it has.
var tricky = []string{"plain", "123", "true", "null", "~", "", " lead", "trail ", "a: b", "a #b", "#x", "- x", "it's", `say "hi"`,
	"'q'", "tab\there", "multi\nline", "multi\nline\n", "ends\n\n", "\nleads", "blank\n\nline", "  indented\nblock", "x\n  more\nless",
	"ünïcödé ✓", "emoji 🐛 here", "\x01ctl", "back\\slash", "a\u2028b", "colon:", "[flow]", "{map}", "*alias", "&anchor", "!tag", "|pipe",
	">fold", "%pct", "@at", "`tick`", "?q", ",comma", "0x1F", "1e3", "2025-01-01", "yes", "No", "ON", "\"", "'", "x\r\ny", "\u00a0nbsp",
	"trailing space \nline", "code:\n\tif x {\n\t\treturn\n\t}", strings.Repeat("long words ", 30)}

func TestDecodeFastAgreesWithYAML(t *testing.T) {
	took := 0
	for i := range 300 {
		for _, tk := range []*task.Task{tasktest.GenTask(i, 300), tasktest.VsTask(i)} {
			b, _ := task.Render(tk, nil)
			if !agree(t, tk.ID, b, tk.ID) {
				t.Fatalf("the fast reader gives up on a file bh wrote:\n%s", b)
			}
		}
	}
	for _, s := range tricky {
		tk := tasktest.GenTask(1, 10)
		tk.Title, tk.Description, tk.Labels = "t"+s, s, []string{s, "x"}
		tk.History[0].Text, tk.Questions[0].Context, tk.Summary = s, s, s
		b, err := task.Render(tk, nil)
		if err != nil {
			t.Logf("bh cannot write %q: %v", s, err) // yaml.v3 writes what it cannot read back
			continue
		}
		if agree(t, "tricky "+s, b, tk.ID) {
			took++
		}
		for _, edit := range handEdits {
			agree(t, "hand-edited tricky", []byte(edit(string(b))), "")
		}
	}
	if took < len(tricky)*2/3 {
		t.Errorf("the fast reader took only %d of %d files with unusual strings", took, len(tricky))
	}
	b, _ := task.Render(tasktest.GenTask(1, 10), nil)
	for i, edit := range handEdits {
		agree(t, "hand edit "+string(rune('a'+i)), []byte(edit(string(b))), "")
	}
	for name, doc := range handWritten {
		agree(t, name, []byte(doc), "")
	}
}

// handEdits are changes a person makes to a task file.
var handEdits = []func(string) string{
	func(s string) string { return "# my notes\n" + s },
	func(s string) string { return strings.Replace(s, "\n", " # why\n", 1) },
	func(s string) string { return strings.Replace(s, "\n", "\n\n", 3) },
	func(s string) string { return strings.ReplaceAll(s, "  - ", "- ") },
	func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
	func(s string) string { return "---\n" + s },
	func(s string) string { return s + "mine: kept\n" },
	func(s string) string { return s + "priorty: P0\n" },
	func(s string) string { return s + "title: again\n" },
	func(s string) string { return strings.Replace(s, "title: ", "title:  ", 1) },
	func(s string) string { return strings.Replace(s, "state: ", "state: \"", 1) },
	func(s string) string { return strings.ReplaceAll(s, "createdAt: ", "createdAt: \"") },
	func(s string) string {
		return strings.Replace(s, "labels:\n  - backend\n  - ui", "labels: [backend, ui]", 1)
	},
	func(s string) string { return strings.Replace(s, "priority: P2", "priority: 2", 1) },
	func(s string) string { return strings.Replace(s, "type: ", "type: \t", 1) },
	func(s string) string { return strings.Replace(s, "id: tm-", "id: TM-", 1) },
	func(s string) string { return strings.Replace(s, "Z\n", "+02:00\n", 1) },
	func(s string) string { return strings.ReplaceAll(s, "    ", "  ") },
	func(s string) string { return "\ufeff" + s },
	func(s string) string { return strings.TrimSuffix(s, "\n") },
	func(s string) string { return strings.Replace(s, "title: ", "title: &a ", 1) },
}

var handWritten = map[string]string{
	"minimal":        "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: open\n",
	"folded":         "id: tm-ab12\ntitle: x\ndescription: >\n  one\n  two\ntype: code\npriority: P2\nstate: open\n",
	"kept":           "id: tm-ab12\ntitle: x\ndescription: |+\n  one\n\ntype: code\npriority: P2\nstate: open\n",
	"indicator":      "id: tm-ab12\ntitle: x\ndescription: |2-\n    one\ntype: code\npriority: P2\nstate: open\n",
	"block blanks":   "id: tm-ab12\ntitle: x\ndescription: |\n  one\n\n  two\n\n\ntype: code\npriority: P2\nstate: open\n",
	"block deeper":   "id: tm-ab12\ntitle: x\ndescription: |-\n  one\n    two\n  three\ntype: code\npriority: P2\nstate: open\n",
	"block spaces":   "id: tm-ab12\ntitle: x\ndescription: |-\n  one\n   \n  two\ntype: code\npriority: P2\nstate: open\n",
	"continued":      "id: tm-ab12\ntitle: a long\n  title\ntype: code\npriority: P2\nstate: open\n",
	"quoted escapes": "id: tm-ab12\ntitle: \"a\\tb\\u00e9\\x41\\U0001F41B\\\\\\\"\"\ntype: code\npriority: P2\nstate: open\n",
	"bad escape":     "id: tm-ab12\ntitle: \"a\\qb\"\ntype: code\npriority: P2\nstate: open\n",
	"single quotes":  "id: tm-ab12\ntitle: 'it''s ''x'''\ntype: code\npriority: P2\nstate: open\n",
	"null title":     "id: tm-ab12\ntitle: null\ntype: code\npriority: P2\nstate: open\n",
	"empty labels":   "id: tm-ab12\ntitle: x\nlabels:\ntype: code\npriority: P2\nstate: open\n",
	"bool words":     "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: open\nneedsReview: yes\n",
	"human false":    "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: open\nhuman: false\n",
	"pid":            "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: open\nlease:\n  worker: w\n  pid: 012\n  host: h\n",
	"nested seq":     "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: open\nlabels:\n  - - a\n",
	"wrong id":       "id: tm-zz99\ntitle: x\ntype: code\npriority: P2\nstate: open\n",
	"bad state":      "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: opened\n",
	"list":           "- id: tm-ab12\n",
	"scalar":         "just text\n",
	"empty":          "",
	"conflict":       "id: tm-ab12\n<<<<<<< HEAD\ntitle: x\n=======\ntitle: y\n>>>>>>> b\n",
	"nel":            "id: tm-ab12\ntitle: a\u0085b\ntype: code\npriority: P2\nstate: open\n",
	"fraction":       "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: open\ncreatedAt: 2025-01-01T10:00:00.123456789Z\n",
	"date only":      "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: open\ncreatedAt: 2025-01-01\n",
	"seq same level": "id: tm-ab12\ntitle: x\ntype: code\npriority: P2\nstate: open\nhistory:\n- at: 2025-01-01T10:00:00Z\n  kind: created\n  text: |-\n    a\n    b\n- at: 2025-01-02T10:00:00Z\n  kind: state\n",
}

// FuzzDecodeFast: whatever file the fast reader takes, yaml.v3 reads the
// same. go test ./task -run XXX -fuzz FuzzDecodeFast -fuzztime 60s
func FuzzDecodeFast(f *testing.F) {
	for i := range 20 {
		b, _ := task.Render(tasktest.GenTask(i, 20), nil)
		f.Add(b)
	}
	for _, s := range tricky {
		tk := tasktest.GenTask(1, 10)
		tk.Title, tk.Description = "t"+s, s
		b, _ := task.Render(tk, nil)
		f.Add(b)
	}
	for _, doc := range handWritten {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, b []byte) { agree(t, "fuzz", b, "") })
}
