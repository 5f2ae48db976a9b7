package cmd

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// Flags are tested apart from behaviour: each command is built with a runF
// that only captures the options it would run with.

func testFactory() (f *Factory, out, errOut *bytes.Buffer) {
	f = newFactory()
	f.IO, _, out, errOut = testIO()
	f.Now = func() time.Time { return time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC) }
	return f, out, errOut
}

func execute(t *testing.T, c *cobra.Command, args string) error {
	t.Helper()
	c.SetArgs(strings.Fields(args))
	c.SetOut(new(strings.Builder))
	c.SetErr(new(strings.Builder))
	return c.Execute()
}

func TestAddFlags(t *testing.T) {
	f, _, _ := testFactory()
	var got *AddOptions
	c := newCmdAdd(f, func(o *AddOptions) error { got = o; return nil })
	err := execute(t, c, "Fix the bug -d why --type docs --priority 1 --size small --parent p1 --depends-on a --depends-on b --label x --label y")
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Fix the bug" || got.Description != "why" || got.Type != "docs" || got.Priority != "1" ||
		got.Size != "small" || got.Parent != "p1" || strings.Join(got.DependsOn, ",") != "a,b" || strings.Join(got.Labels, ",") != "x,y" {
		t.Errorf("options = %+v", got)
	}
	got = nil
	if err := execute(t, c, ""); exitCode(err) != exitUsage || got != nil {
		t.Errorf("no title: err %v (exit %d), ran %v", err, exitCode(err), got != nil)
	}
}

func TestUpdateFlagsOnlyGiven(t *testing.T) {
	f, _, _ := testFactory()
	var got *UpdateOptions
	c := newCmdUpdate(f, func(o *UpdateOptions) error { got = o; return nil })
	if err := execute(t, c, "ab12 --priority P0 --parent= --label a"); err != nil {
		t.Fatal(err)
	}
	if got.ID != "ab12" || got.Priority == nil || *got.Priority != "P0" {
		t.Errorf("priority = %v", got.Priority)
	}
	if got.Parent == nil || *got.Parent != "" {
		t.Errorf("--parent= should ask to clear the parent, got %v", got.Parent)
	}
	if got.Labels == nil || strings.Join(*got.Labels, ",") != "a" {
		t.Errorf("labels = %v", got.Labels)
	}
	if got.Title != nil || got.Description != nil || got.Type != nil || got.Size != nil || got.DependsOn != nil {
		t.Errorf("flags not given were set: %+v", got)
	}
}

func TestRespondArgs(t *testing.T) {
	f, _, _ := testFactory()
	var got *RespondOptions
	c := newCmdRespond(f, func(o *RespondOptions) error { got = o; return nil })
	for _, tc := range []struct {
		args      string
		answer    string
		has, edit bool
	}{
		{"ab12", "", false, false},
		{"ab12 -", "-", true, false},
		{"ab12 yes", "yes", true, false},
		{"ab12 --edit", "", false, true},
		{"ab12 -e", "", false, true},
	} {
		if err := execute(t, c, tc.args); err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		if got.ID != "ab12" || got.Answer != tc.answer || got.HasAnswer != tc.has || got.Edit != tc.edit {
			t.Errorf("%s: options = %+v", tc.args, got)
		}
		got.Edit = false // the command is reused, and a bool flag not given keeps its value
	}
}

func TestListFlags(t *testing.T) {
	f, _, _ := testFactory()
	var got *ListOptions
	c := newCmdList(f, func(o *ListOptions) error { got = o; return nil })
	if err := execute(t, c, "--state open,blocked --state failed -a --label x --label y --parent p --ready"); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.States, ",") != "open,blocked,failed" || !got.All || !got.Ready ||
		strings.Join(got.Labels, ",") != "x,y" || got.Parent != "p" {
		t.Errorf("options = %+v", got)
	}
}

func TestRunMapsErrorsToExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args   string
		code   int
		stderr string
	}{
		{"frobnicate", exitUsage, "bh: unknown command \"frobnicate\" for \"bh\"\nhint: run 'bh --help' for usage\n"},
		{"list --bogus", exitUsage, "bh: unknown flag: --bogus\nhint: run 'bh list --help' for usage\n"},
		{"show a b", exitUsage, "bh: too many arguments (want task id)\nhint: run 'bh show --help' for usage\n"},
		{"show --json a b", exitUsage, `{"error":"too many arguments (want task id)","hint":"run 'bh show --help' for usage"}` + "\n"},
	} {
		f, out, errOut := testFactory()
		code := run(f, strings.Fields(tc.args))
		if got := errOut.String(); code != tc.code || got != tc.stderr || out.Len() > 0 {
			t.Errorf("bh %s: exit %d, stderr %q; want %d, %q", tc.args, code, got, tc.code, tc.stderr)
		}
	}
}

func TestRespondFlags(t *testing.T) {
	f, _, _ := testFactory()
	var got *RespondOptions
	c := newCmdRespond(f, func(o *RespondOptions) error { got = o; return nil })
	if err := execute(t, c, "ab12 because -n -c A --choice b --other x -q 2 -t lgtm"); err != nil {
		t.Fatal(err)
	}
	if got.ID != "ab12" || got.Answer != "because" || !got.HasAnswer || !got.No || got.Yes ||
		strings.Join(got.Choices, ",") != "A,b" || got.Other != "x" || !got.HasOther || got.Question != "2" || got.Template != "lgtm" {
		t.Errorf("options = %+v", got)
	}
	c = newCmdRespond(f, func(o *RespondOptions) error { got = o; return nil })
	if err := execute(t, c, "--all"); err != nil || !got.All || got.ID != "" || got.HasOther {
		t.Errorf("--all: %v, %+v", err, got)
	}
	if err := execute(t, c, "a b c"); exitCode(err) != exitUsage {
		t.Errorf("three arguments: %v", err)
	}
}

func TestStopAndLogFlags(t *testing.T) {
	f, _, _ := testFactory()
	var stop *StopOptions
	c := newCmdStop(f, func(o *StopOptions) error { stop = o; return nil })
	if err := execute(t, c, "ab12 -r why"); err != nil || stop.ID != "ab12" || stop.Reason != "why" {
		t.Errorf("stop: %v, %+v", err, stop)
	}
	var log *LogOptions
	c = newCmdLog(f, func(o *LogOptions) error { log = o; return nil })
	if err := execute(t, c, "-f --since 2d"); err != nil || !log.Follow || log.Since != "2d" || log.ID != "" || log.Ctx == nil {
		t.Errorf("log: %v, %+v", err, log)
	}
	if err := execute(t, c, "ab12"); err != nil || log.ID != "ab12" {
		t.Errorf("log ab12: %v, %+v", err, log)
	}
}
