package worker

import (
	"github.com/bh-tracker/bh/worker/doctor"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task/config"
)

// TestDoctorNamesConfigTheWorkerRejects: a notify entry the worker
// refuses (an unknown event) passes the store's own checks; doctor names
// it with the worker's words, and a detached HEAD likewise.
func TestDoctorNamesConfigTheWorkerRejects(t *testing.T) {
	s := doctorStore(t)
	if f := finding(t, doctorT(t, s, false), "config", ""); f.Status != doctor.OK {
		t.Fatalf("healthy config: %+v", f)
	}
	s.Config.Notify = []config.NotifyConfig{{Events: []string{"task.exploded"}, Command: "true"}}
	werr := Run(t.Context(), t.Context(), s, Options{Once: true})
	f := finding(t, doctorT(t, s, false), "config", "")
	if werr == nil || f.Status != doctor.Error || f.Message != werr.Error() || !strings.Contains(f.Message, "task.exploded") {
		t.Fatalf("worker: %v; doctor: %+v; want the same refusal", werr, f)
	}

	s.Config.Notify = nil
	gitT(t, s.Root, "checkout", "-q", "--detach")
	werr = Run(t.Context(), t.Context(), s, Options{Once: true, Runner: &fake{}})
	f = finding(t, doctorT(t, s, false), "config", "")
	if werr == nil || f.Status != doctor.Error || f.Message != werr.Error() {
		t.Fatalf("detached: worker %v; doctor %+v", werr, f)
	}
}
