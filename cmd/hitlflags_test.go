package cmd

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

func TestAddHITLFlags(t *testing.T) {
	f, _, _ := testFactory()
	var got *AddOptions
	c := newCmdAdd(f, func(o *AddOptions) error { got = o; return nil })
	if err := execute(t, c, "T --gate approval --human=false --human-timeout 2h --on-timeout remind"); err != nil {
		t.Fatal(err)
	}
	if got.Gate != "approval" || got.Human == nil || *got.Human || got.HumanTimeout != "2h" || got.OnTimeout != "remind" {
		t.Errorf("options = %+v (human %v)", got, got.Human)
	}
	for args, want := range map[string]string{"T": "<nil>", "T --no-human": "false", "T --human": "true",
		"T --human=false --no-human": "false"} {
		c = newCmdAdd(f, func(o *AddOptions) error { got = o; return nil })
		if err := execute(t, c, args); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if h := boolPtrText(got.Human); h != want {
			t.Errorf("%s: human %s, want %s", args, h, want)
		}
	}
	c = newCmdAdd(f, func(o *AddOptions) error { got = o; return nil })
	if err := execute(t, c, "T --human --no-human"); exitCode(err) != exitUsage || !strings.Contains(err.Error(), "contradict") {
		t.Errorf("--human --no-human: %v", err)
	}
}

func boolPtrText(b *bool) string {
	if b == nil {
		return "<nil>"
	}
	return fmt.Sprint(*b)
}

func TestUpdateHITLFlagsOnlyGiven(t *testing.T) {
	f, _, _ := testFactory()
	var got *UpdateOptions
	c := newCmdUpdate(f, func(o *UpdateOptions) error { got = o; return nil })
	if err := execute(t, c, "ab12 --gate= --no-human --needs-review=false"); err != nil {
		t.Fatal(err)
	}
	if got.Gate == nil || *got.Gate != "" || got.Human == nil || *got.Human || got.NeedsReview == nil || *got.NeedsReview {
		t.Errorf("options = %+v", got)
	}
	if got.HumanTimeout != nil || got.OnTimeout != nil || got.Priority != nil {
		t.Errorf("flags not given were set: %+v", got)
	}
}

func TestCheckHITLValues(t *testing.T) {
	for _, tc := range []struct {
		check     func(string) (string, error)
		in, want  string
		errSubstr string
	}{
		{checkGate, "approval", "approval", ""},
		{checkGate, " none ", "none", ""},
		{checkGate, "", "", ""},
		{checkGate, "always", "", `--gate: unknown gate "always" (want one of [approval none])`},
		{checkHumanTimeout, "90m", "90m", ""},
		{checkHumanTimeout, "1d", "", `--human-timeout: "1d" is not a positive duration`},
		{checkHumanTimeout, "-1h", "", "not a positive duration"},
		{checkHumanTimeout, "0s", "", "not a positive duration"},
		{checkOnTimeout, "defer", "defer", ""},
		{checkOnTimeout, "retry", "", `--on-timeout: unknown value "retry" (want one of [remind fail defer default])`},
	} {
		got, err := tc.check(tc.in)
		switch {
		case tc.errSubstr == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.errSubstr != "" && (err == nil || !strings.Contains(err.Error(), tc.errSubstr) || exitCode(err) != exitUsage):
			t.Errorf("%q: error %v, want a usage error containing %q", tc.in, err, tc.errSubstr)
		}
	}
}

// An update names each human-in-the-loop field it changed, and leaves the
// others as they were.
func TestHITLChangesApply(t *testing.T) {
	no, yes := false, true
	tk := &task.Task{Gate: task.GateApproval, HumanTimeout: "2h", NeedsReview: true}
	str := func(s string) *string { return &s }
	ch := changes{gate: str(""), human: &no, onTimeout: str("remind"), humanTimeout: str("2h"), needsReview: &no}
	if got := strings.Join(ch.apply(tk), ","); got != "gate,human,onTimeout,needsReview" {
		t.Errorf("changed %s", got)
	}
	if tk.Gate != "" || tk.Human == nil || *tk.Human || tk.OnTimeout != "remind" || tk.HumanTimeout != "2h" || tk.NeedsReview {
		t.Errorf("task = %+v", tk)
	}
	if got := (&changes{human: &no}).apply(tk); len(got) != 0 {
		t.Errorf("same value changed %v", got)
	}
	if got := strings.Join((&changes{human: &yes}).apply(tk), ","); got != "human" || !*tk.Human {
		t.Errorf("human back to true: %s", got)
	}
}

func TestHITLTags(t *testing.T) {
	io, _, _, _ := testIO()
	no, yes := false, true
	for _, tc := range []struct {
		t    task.Task
		want string
	}{
		{task.Task{}, ""},
		{task.Task{Human: &yes, HumanTimeout: "1h"}, ""},
		{task.Task{NeedsReview: true, Gate: task.GateApproval, Human: &no}, "needs review gate:approval human:false"},
	} {
		if got := hitlTags(io, &tc.t); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.t, got, tc.want)
		}
	}
}
