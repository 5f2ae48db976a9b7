package worker

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
)

func TestDeadWorkerIsRecovered(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Interrupted")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = s.Root
	cmd.Env = append(os.Environ(), "BH_WORKER_HELPER=hang")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "started ") {
		cmd.Process.Kill()
		t.Fatalf("helper said %q", line)
	}
	session := strings.TrimSpace(strings.TrimPrefix(line, "started "))
	cmd.Process.Kill() // no chance to clean up: a crash
	cmd.Wait()
	if got := getTask(t, s, tk.ID); got.State != task.InProgress || got.Lease.PID != cmd.Process.Pid {
		t.Fatalf("before recovery: %+v", got)
	}

	var sawHalf bool
	f := &fake{steps: []stepFn{func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		sawHalf = exists(req.Dir, "half.txt")
		return step(map[string]string{"rest.txt": "rest\n"}, done("finished after recovery"))(ctx, req)
	}}}
	evs := runOnce(t, s, f)
	if len(evs) == 0 || evs[0].Kind != Recovered || evs[0].Task != tk.ID {
		t.Fatalf("events: %+v", evs)
	}
	got := getTask(t, s, tk.ID)
	var note bool
	for _, e := range got.History {
		note = note || e.Kind == task.EventState && e.To == task.Open && strings.Contains(e.Text, "recovered")
	}
	if !note || got.State != task.Closed {
		t.Fatalf("after recovery: state %s, history note %v", got.State, note)
	}
	r := f.requests()[0]
	if !r.Resume || r.SessionID != session || !sawHalf {
		t.Fatalf("recovered run: resume %v session %q (want %q), partial work back %v", r.Resume, r.SessionID, session, sawHalf)
	}
	if c := committed(t, s.Root, "HEAD"); len(c) != 3 || c[1] != "half.txt" {
		t.Fatalf("commit after recovery: %v", c)
	}
}

func TestSecondWorkerIsRefused(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	waiting := make(chan struct{}, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, ctx, s, Options{Runner: &fake{}, Report: func(e Event) {
			if e.Kind == Waiting {
				waiting <- struct{}{}
			}
		}})
	}()
	<-waiting
	err := Run(ctx, ctx, s, Options{Runner: &fake{}, Once: true})
	var busy *claims.BusyError
	if !errors.As(err, &busy) || busy.Holder.PID != os.Getpid() || busy.Holder.Host != claims.Hostname() {
		t.Fatalf("second worker: %v", err)
	}
	if !strings.Contains(err.Error(), "pid ") || !strings.Contains(err.Error(), "since") {
		t.Fatalf("error does not name the first worker: %v", err)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), context.Background(), s, Options{Runner: &fake{}, Once: true}); err != nil {
		t.Fatalf("worker after the first stopped: %v", err)
	}
}

func TestLeaseHeartbeatsWhileAgentRuns(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Slow")
	var ticks atomic.Int64
	base := time.Now()
	s.Now = func() time.Time { return base.Add(time.Duration(ticks.Add(1)) * time.Minute) }
	var during *task.Lease
	slow := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		first := getTask(t, s, tk.ID).Lease.Heartbeat
		for end := time.Now().Add(fakeapi.Patience(time.Second)); time.Now().Before(end); {
			time.Sleep(5 * time.Millisecond)
			if l := getTask(t, s, tk.ID).Lease; l.Heartbeat.After(first) {
				during = l
				break
			}
		}
		return step(nil, done("ok"))(ctx, req)
	}
	ctx := context.Background()
	if err := Run(ctx, ctx, s, Options{Runner: &fake{steps: []stepFn{slow}}, Once: true, Heartbeat: 10 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if during == nil || during.PID != os.Getpid() || !during.Heartbeat.After(during.StartedAt) {
		t.Fatalf("lease not renewed while the agent ran: %+v", during)
	}
	if getTask(t, s, tk.ID).Lease != nil {
		t.Fatal("lease kept after the run")
	}
}
