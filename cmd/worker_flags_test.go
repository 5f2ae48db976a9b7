package cmd

import (
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/ending"
)

func TestWorkerClaimDiffDemoFlags(t *testing.T) {
	f, _, _ := testFactory()
	var w *WorkerOptions
	c := newCmdWorker(f, func(o *WorkerOptions) error { w = o; return nil })
	if err := execute(t, c, "--once --timeout 20m --agent-cmd my-agent"); err != nil {
		t.Fatal(err)
	}
	if !w.Once || w.Timeout != 20*time.Minute || w.AgentCmd != "my-agent" || w.Ctx == nil {
		t.Errorf("worker options = %+v", w)
	}
	if err := execute(t, c, "extra"); exitCode(err) != exitUsage {
		t.Errorf("worker with an argument: %v", err)
	}
	if err := execute(t, newCmdWorker(f, nil), "--timeout=-1s"); exitCode(err) != exitUsage {
		t.Errorf("negative timeout: %v", err)
	}

	var cl *ClaimOptions
	c = newCmdClaim(f, func(o *ClaimOptions) error { cl = o; return nil })
	if err := execute(t, c, "--next"); err != nil || !cl.Next || cl.ID != "" {
		t.Errorf("claim --next: %v, %+v", err, cl)
	}
	c = newCmdClaim(f, func(o *ClaimOptions) error { cl = o; return nil })
	if err := execute(t, c, "ab12"); err != nil || cl.Next || cl.ID != "ab12" {
		t.Errorf("claim ab12: %v, %+v", err, cl)
	}
	for _, args := range []string{"", "ab12 --next"} {
		if err := execute(t, newCmdClaim(f, nil), args); exitCode(err) != exitUsage {
			t.Errorf("claim %q: %v, want a usage error", args, err)
		}
	}

	var d *DiffOptions
	c = newCmdDiff(f, func(o *DiffOptions) error { d = o; return nil })
	if err := execute(t, c, "ab12 --stat"); err != nil || d.ID != "ab12" || !d.Stat {
		t.Errorf("diff: %v, %+v", err, d)
	}

	var dm *DemoOptions
	c = newCmdDemo(f, func(o *DemoOptions) error { dm = o; return nil })
	if err := execute(t, c, "--keep"); err != nil || !dm.Keep || dm.Ctx == nil {
		t.Errorf("demo: %v, %+v", err, dm)
	}
}

// TestWorkerHelpDocumentsEveryJSONKindAndOutcome: the --json contract in
// bh worker --help names every event kind and outcome the worker has.
func TestWorkerHelpDocumentsEveryJSONKindAndOutcome(t *testing.T) {
	c := newCmdWorker(&Factory{}, nil)
	help := strings.Join(strings.Fields(c.Long), " ")
	for _, k := range worker.Kinds {
		if !strings.Contains(help, string(k)) {
			t.Errorf("bh worker --help does not name the event kind %q", k)
		}
	}
	for _, o := range ending.Outcomes {
		if !strings.Contains(help, string(o)) {
			t.Errorf("bh worker --help does not name the outcome %q", o)
		}
	}
}
