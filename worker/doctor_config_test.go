package worker

import (
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"
)

// TestDoctorNamesConfigTheWorkerRejects: what makes the worker refuse to
// start (a detached HEAD) doctor names with the worker's words. (A notify
// entry the worker cannot use is refused when the config is read.)
func TestDoctorNamesConfigTheWorkerRejects(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	if f := finding(t, doctorT(t, s, false), "config", ""); f.Status != doctor.OK {
		t.Fatalf("healthy config: %+v", f)
	}
	gitT(t, s.Root, "checkout", "-q", "--detach")
	werr := Run(t.Context(), t.Context(), s, Options{Once: true, Runner: &fake{}})
	f := finding(t, doctorT(t, s, false), "config", "")
	if werr == nil || f.Status != doctor.Error || f.Message != werr.Error() {
		t.Fatalf("detached: worker %v; doctor %+v", werr, f)
	}
}
