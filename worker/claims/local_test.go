package claims

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

func TestClaimRaceGoroutines(t *testing.T) {
	s := storetest.New(t)
	tk := storetest.Add(t, s, "Contended")
	var wins, losses int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := Claim(s, tk.ID, HandLease(time.Now()), nil)
			var nr *NotReadyError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.As(err, &nr) && nr.State == task.InProgress:
				losses++
			default:
				t.Errorf("claim: %v", err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 || losses != 15 {
		t.Fatalf("%d wins, %d losses; want exactly one winner", wins, losses)
	}
}

func TestClaimRaceProcesses(t *testing.T) {
	s := storetest.New(t)
	tk := storetest.Add(t, s, "Contended across processes")
	const n = 6
	outs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Dir = s.Root
			cmd.Env = append(os.Environ(), "BH_CLAIMS_HELPER=claim")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("helper: %v\n%s", err, out)
			}
			outs[i] = strings.TrimSpace(string(out))
		}()
	}
	wg.Wait()
	won := 0
	for _, o := range outs {
		switch o {
		case "won " + tk.ID:
			won++
		case "none":
		default:
			t.Errorf("helper said %q", o)
		}
	}
	if won != 1 {
		t.Fatalf("%d processes won the claim: %q", won, outs)
	}
	if got := storetest.Get(t, s, tk.ID); got.State != task.InProgress || got.Lease.Worker != HandWorker || got.Lease.PID != 0 {
		t.Fatalf("claimed task: %+v lease %+v", got, got.Lease)
	}
}

func TestClaimChecksReadiness(t *testing.T) {
	s := storetest.New(t)
	dep := storetest.Add(t, s, "First")
	next := storetest.Add(t, s, "Second", dep.ID)
	_, err := Claim(s, next.ID, HandLease(time.Now()), nil)
	var nr *NotReadyError
	if !errors.As(err, &nr) || len(nr.Waiting) != 1 || nr.Waiting[0] != dep.ID {
		t.Fatalf("claim of a blocked task: %v", err)
	}
	got, err := Next(s, nil, HandLease(time.Now()), nil, nil)
	if err != nil || got.ID != dep.ID {
		t.Fatalf("claim next: %v %v", got, err)
	}
	if _, err := Next(s, nil, HandLease(time.Now()), nil, nil); !errors.Is(err, ErrNothingReady) {
		t.Fatalf("nothing ready: got %v", err)
	}
}

func TestDeadLeases(t *testing.T) {
	s := storetest.New(t)
	gone := exec.Command("true")
	gone.Run()
	at := now(s)
	host := Hostname()
	for _, c := range []struct {
		name  string
		lease task.Lease
		dead  bool
	}{
		{"hand claim", task.Lease{Worker: HandWorker, Host: host, Heartbeat: at.Add(-time.Hour)}, false},
		{"exited process here", task.Lease{Worker: "worker", PID: gone.Process.Pid, Host: host, Heartbeat: at}, true},
		{"live process here", task.Lease{Worker: "worker", PID: os.Getppid(), Host: host, Heartbeat: at}, false},
		{"other host, fresh", task.Lease{Worker: "worker", PID: 1, Host: "elsewhere", Heartbeat: at}, false},
		{"other host, stale", task.Lease{Worker: "worker", PID: 1, Host: "elsewhere", Heartbeat: at.Add(-time.Hour)}, true},
	} {
		if got := Dead(c.lease, at, 2*time.Minute); got != c.dead {
			t.Errorf("%s: dead = %v, want %v", c.name, got, c.dead)
		}
	}
}
