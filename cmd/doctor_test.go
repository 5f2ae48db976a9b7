package cmd

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"
)

func TestDoctorFlags(t *testing.T) {
	f, _, _ := testFactory()
	var got *DoctorOptions
	c := newCmdDoctor(f, func(o *DoctorOptions) error { got = o; return nil })
	if err := execute(t, c, "--fix"); err != nil || !got.Fix {
		t.Errorf("doctor --fix: %v, %+v", err, got)
	}
	if err := execute(t, c, "tm-x"); exitCode(err) != exitUsage {
		t.Errorf("doctor with an argument: %v", err)
	}
}

// The icons are coloured on a terminal only, and the summary counts.
func TestPrintFindings(t *testing.T) {
	rep := doctor.Report{Findings: []doctor.Finding{
		{Check: "store", Status: doctor.OK, Message: "fine"},
		{Check: "locks", Status: doctor.Warn, Subject: ".bh/tmp", Message: "left", Fix: "remove them", Fixable: true},
		{Check: "leases", Status: doctor.Fixed, Subject: "tm-a", Message: "dead", Fix: "recover it", Fixable: true},
	}}
	for _, color := range []bool{false, true} {
		io, _, out, _ := testIO()
		io.SetColor(color)
		printFindings(io, rep, false)
		got := out.String()
		if strings.Contains(got, "\x1b[") != color {
			t.Errorf("colour %v: %q", color, got)
		}
		for _, want := range []string{"store: fine", "!", "locks: .bh/tmp: left", "    ", "fix: ", "remove them",
			"fixed: ", "1 problem (0 errors, 1 warning), 1 fixed, 1 fixable with bh doctor --fix"} {
			if !strings.Contains(got, want) {
				t.Errorf("colour %v: no %q in\n%s", color, want, got)
			}
		}
	}
}
