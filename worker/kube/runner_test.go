package kube_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/mcp"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/bh-tracker/bh/worker/kube/result"
)

var running = map[string]any{"phase": "Running"}

// sessionAgent is an agent that writes its work, and keeps its sessions
// in files (as claude does): it appends a line to the session it resumes.
type sessionAgent struct {
	dir   string // its sessions
	write map[string]string
	seen  string // the session as it found it
}

func (a *sessionAgent) SessionFile(req agent.Request) string {
	return filepath.Join(a.dir, req.SessionID+".jsonl")
}

func (a *sessionAgent) Run(_ context.Context, req agent.Request) (*agent.Outcome, error) {
	for rel, c := range a.write {
		os.WriteFile(filepath.Join(req.Dir, rel), []byte(c), 0o644)
	}
	b, _ := os.ReadFile(a.SessionFile(req))
	a.seen = string(b)
	os.WriteFile(a.SessionFile(req), append(b, "turn\n"...), 0o600)
	return &agent.Outcome{Result: agent.Result{Status: agent.StatusCompleted, Summary: "done in a pod"}, SessionID: req.SessionID}, nil
}

// TestRunnerRunsAgentInPod: the worker pushes the worktree's state as
// the run's input and asks for a pod with it as an annotation; the pod
// runs the agent and hands its result back through its helper; the
// worker takes the work into the worktree and the outcome, keeps the
// session's transcript (sent again with the next, resumed, run), and
// deletes the SandboxClaim and the run's refs.
func TestRunnerRunsAgentInPod(t *testing.T) {
	cl := newCluster(t)
	gittest.Write(t, cl.wt, "draft.txt", "the worker's uncommitted draft\n")
	w := cl.watchClaims(t)
	a := &sessionAgent{dir: t.TempDir(), write: map[string]string{"pod.txt": "from the pod\n"}}
	for i, resume := range []bool{false, true} {
		done := cl.run(t, agent.Request{Prompt: "do it", SessionID: "5e55-10", Resume: resume})
		claim := cl.created(t, w)
		cl.bind(t, claim, running, i)
		os.RemoveAll(a.dir) // another pod: the session only as the input brings it
		os.MkdirAll(a.dir, 0o700)
		cl.pod(t, claim, a)
		got := <-done
		if got.err != nil {
			t.Fatal(got.err)
		}
		if got.o.Result.Summary != "done in a pod" || got.o.SessionID != "5e55-10" {
			t.Fatalf("outcome %+v", got.o)
		}
		if gittest.Read(t, cl.wt, "pod.txt") != "from the pod\n" || gittest.Read(t, cl.wt, "draft.txt") != "the worker's uncommitted draft\n" {
			t.Fatal("the pod's work did not reach the worktree beside the draft")
		}
		if want := strings.Repeat("turn\n", i); a.seen != want {
			t.Fatalf("run %d: the pod's agent found the session %q, want %q", i, a.seen, want)
		}
		deleted(t, w)
		if refs := cl.remoteRefs(t); refs != "" {
			t.Fatalf("the run's refs are left on the remote:\n%s", refs)
		}
	}
	if s, _ := os.ReadFile(cl.r.SessionFile(agent.Request{TaskID: cl.tk.ID, SessionID: "5e55-10"})); string(s) != "turn\nturn\n" {
		t.Fatalf("the session kept here: %q", s)
	}
}

// TestRunnerRefusesTamperedResult: a pod whose agent wrote into bh's
// store gets a refused run, and nothing of its work reaches the worktree.
func TestRunnerRefusesTamperedResult(t *testing.T) {
	cl := newCluster(t)
	a := &sessionAgent{dir: t.TempDir(), write: map[string]string{"pod.txt": "x\n", ".bh/tasks/" + cl.tk.ID + ".yaml": "state: closed\n"}}
	got := cl.inPod(t, agent.Request{Prompt: "do it", SessionID: "s1"}, a)
	var re *agent.RunError
	if !errors.As(got.err, &re) || !result.IsRefused(got.err) {
		t.Fatalf("ran with %v, want the result refused", got.err)
	}
	if gittest.Exists(cl.wt, "pod.txt") {
		t.Fatal("a refused result's work reached the worktree")
	}
}

// TestRunnerPodTrouble: a pod that cannot pull its image, or is not
// bound in time, is an outage (claims pause); one that fails after it
// was bound is the run's failure, and so is one whose helper fails to
// hand its result back (one over its limit): its words say why. The
// SandboxClaim goes either way.
func TestRunnerPodTrouble(t *testing.T) {
	pull := map[string]any{"phase": "Pending", "containerStatuses": []any{map[string]any{
		"state": map[string]any{"waiting": map[string]any{"reason": "ImagePullBackOff", "message": "no such image"}}}}}
	failed := map[string]any{"phase": "Failed", "reason": "Evicted", "message": "the node ran out of memory"}
	helper := map[string]any{"phase": "Running", "containerStatuses": []any{map[string]any{"name": "task", "state": map[string]any{}},
		map[string]any{"name": "result", "state": map[string]any{"waiting": map[string]any{"reason": "CrashLoopBackOff"}},
			"lastState": map[string]any{"terminated": map[string]any{"exitCode": int64(1),
				"message": "Error: tm-1: the result: the result is 1.0 GiB, more than its limit 256 MiB (k8s.maxResult)\n\x1b[0m"}}}}}
	for name, tc := range map[string]struct {
		status map[string]any // nil: never bound
		outage bool
		why    string
	}{
		"image":   {status: pull, outage: true, why: "cannot pull its image"},
		"unbound": {outage: true, why: "was not bound within"},
		"evicted": {status: failed, why: "failed (Evicted"},
		"helper":  {status: helper, why: "could not hand its result back: Error: tm-1: the result: the result is 1.0 GiB, more than its limit 256 MiB (k8s.maxResult)"},
	} {
		t.Run(name, func(t *testing.T) {
			cl := newCluster(t)
			if tc.status == nil {
				cl.r.K8s.BindTimeout.D = 10 * time.Millisecond
			}
			w := cl.watchClaims(t)
			done := cl.run(t, agent.Request{Prompt: "do it", SessionID: "s1"})
			claim := cl.created(t, w)
			if tc.status != nil {
				cl.bind(t, claim, tc.status, 0)
			}
			got := <-done
			var re *agent.RunError
			if !errors.As(got.err, &re) || (re.Outage != "") != tc.outage || !strings.Contains(re.Reason, tc.why) {
				t.Fatalf("ran with %v (outage %q), want %q, outage %v", got.err, re.Outage, tc.why, tc.outage)
			}
			deleted(t, w)
		})
	}
}

// TestRunnerAgentDir: an agent that works in a folder of the worktree
// (agent.dir:) works in the same folder of the pod's checkout.
func TestRunnerAgentDir(t *testing.T) {
	cl := newCluster(t)
	gittest.Write(t, cl.wt, "web/index.html", "<p>\n")
	w := cl.watchClaims(t)
	done := make(chan outcome, 1)
	go func() {
		o, err := cl.r.Run(context.Background(), agent.Request{Prompt: "do it", SessionID: "s1", TaskID: cl.tk.ID,
			Dir: filepath.Join(cl.wt, "web"), Env: []string{"BH_WORKTREE=" + cl.wt}})
		done <- outcome{o, err}
	}()
	claim := cl.created(t, w)
	cl.bind(t, claim, running, 0)
	cl.pod(t, claim, &sessionAgent{dir: t.TempDir(), write: map[string]string{"app.js": "1\n"}})
	if got := <-done; got.err != nil {
		t.Fatal(got.err)
	}
	if gittest.Read(t, cl.wt, "web/app.js") != "1\n" {
		t.Fatal("the agent did not work in its folder")
	}
}

// outageAgent meets its usage limit after it wrote some work.
type outageAgent struct{ resets time.Time }

func (a outageAgent) Run(_ context.Context, req agent.Request) (*agent.Outcome, error) {
	os.WriteFile(filepath.Join(req.Dir, "half.txt"), []byte("half done\n"), 0o644)
	return nil, &agent.RunError{Reason: "Claude AI usage limit reached", ExitCode: 1, Outage: agent.OutageLimit,
		Limit: &agent.Limit{Status: agent.LimitRejected, ResetsAt: a.resets, Window: "five_hour"}}
}

// TestRunnerCarriesOutage: an agent that meets its usage limit in its
// pod is, for the worker, what it is for a local run: an outage with its
// reset (the worker pauses, the task is not failed), not a failed run;
// none of its work is taken.
func TestRunnerCarriesOutage(t *testing.T) {
	cl := newCluster(t)
	resets := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	got := cl.inPod(t, agent.Request{Prompt: "do it", SessionID: "s1"}, outageAgent{resets: resets})
	var re *agent.RunError
	if !errors.As(got.err, &re) || agent.OutageOf(got.err) != agent.OutageLimit || re.Limit == nil || !re.Limit.ResetsAt.Equal(resets) {
		t.Fatalf("ran with %v, want the usage limit that resets at %s", got.err, resets)
	}
	if !strings.Contains(re.Reason, "usage limit reached") {
		t.Fatalf("reason %q, want the agent's words", re.Reason)
	}
	if gittest.Exists(cl.wt, "half.txt") {
		t.Fatal("an outage's work reached the worktree")
	}
}

// bigAgent writes more than a result may hold, and asks a question.
type bigAgent struct{}

func (bigAgent) Run(_ context.Context, req agent.Request) (*agent.Outcome, error) {
	os.WriteFile(filepath.Join(req.Outbox, "asked.jsonl"), []byte(`{"question":"Keep the blob?"}`+"\n"), 0o600)
	big := make([]byte, 64<<10)
	rand.Read(big) // does not compress
	os.WriteFile(filepath.Join(req.Dir, "big.bin"), big, 0o644)
	return &agent.Outcome{Result: agent.Result{Status: agent.StatusCompleted, Summary: "all of it"}}, nil
}

// TestRunnerRefusesResultOverLimit: a result over the worker's
// k8s.maxResult is refused, naming the limit, and none of it is taken.
func TestRunnerRefusesResultOverLimit(t *testing.T) {
	cl := newCluster(t)
	cl.r.K8s.MaxResult = "16KiB"
	got := cl.inPod(t, agent.Request{Prompt: "do it", SessionID: "s1"}, bigAgent{})
	if !result.IsRefused(got.err) || !strings.Contains(got.err.Error(), "more than its limit 16 KiB (k8s.maxResult)") {
		t.Fatalf("ran with %v, want the result refused over 16 KiB", got.err)
	}
	if gittest.Exists(cl.wt, "big.bin") {
		t.Fatal("a refused result's work reached the worktree")
	}
}

// TestPodLeavesNoResultOverLimit: the pod's own run bounds its result by
// the input's k8s.maxResult (the worker's config): over it, it leaves a
// failed outcome that says so, and none of the work; the question its
// agent asked still goes with it.
func TestPodLeavesNoResultOverLimit(t *testing.T) {
	const id = "tm-9"
	root := t.TempDir()
	remote, out := filepath.Join(root, "remote.git"), filepath.Join(root, "out")
	worker := gittest.Init(t, map[string]string{".bh/tasks/tm-9.yaml": "id: tm-9\ntitle: t\ntype: code\npriority: P2\nsize: small\nstate: open\ncreatedAt: 2026-11-22T05:14:01Z\nupdatedAt: 2026-11-22T05:14:01Z\n", ".bh/config.yaml": "prefix: tm\nk8s:\n  maxResult: 16KiB\n",
		kube.RequestFile: `{"prompt":"do it"}`})
	gittest.Git(t, root, "init", "-q", "--bare", remote)
	gittest.Git(t, worker, "push", "-q", remote, "HEAD:"+git.RunRef(id))
	os.MkdirAll(out, 0o755)
	h := kube.Handed{Task: id, Run: gittest.Rev(t, worker, "HEAD")}
	pod := filepath.Join(root, "run")
	commit, err := kube.RunPod(context.Background(), h, remote, pod, out,
		func(*store.Store, *task.Task) (agent.Runner, error) { return bigAgent{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	files := gittest.Git(t, pod, "ls-tree", "-r", "--name-only", commit)
	outcome := gittest.Git(t, pod, "show", commit+":"+result.OutcomeFile)
	if strings.Contains(files, "big.bin") || !strings.Contains(files, result.OutboxDir+"/asked.jsonl") || !strings.Contains(outcome, `"status":"failed"`) || !strings.Contains(outcome, "more than its limit 16 KiB (k8s.maxResult)") {
		t.Fatalf("left %s with files\n%s\nand outcome %s", commit, files, outcome)
	}
}

// askingAgent asks through bh's MCP server, which records the question
// in the run's outbox (BH_OUTBOX, as bh mcp has it), then ends as end says.
type askingAgent struct{ end error }

func (a askingAgent) Run(_ context.Context, req agent.Request) (*agent.Outcome, error) {
	if req.Outbox == "" || !slices.Contains(req.Env, mcp.OutboxEnv+"="+req.Outbox) || strings.HasPrefix(req.Outbox, req.Dir) {
		return nil, fmt.Errorf("no outbox of its own outside the checkout: %q", req.Outbox)
	}
	q := `{"question":"Allow Bash(make deploy)?","type":"approval","tool":"Bash(make deploy)"}` + "\n"
	os.WriteFile(filepath.Join(req.Outbox, "asked.jsonl"), []byte(q), 0o600)
	os.WriteFile(filepath.Join(req.Outbox, "added.jsonl"), []byte(`{"title":"Write the deploy doc"}`+"\n"), 0o600)
	if a.end != nil {
		return nil, a.end
	}
	return &agent.Outcome{Result: agent.Result{Status: agent.StatusCompleted, Summary: "asked"}, SessionID: req.SessionID}, nil
}

// TestRunnerCarriesAskedQuestions: what the pod's agent asked through bh
// mcp (a permission prompt, ask_human), and the tasks it added, reach
// the worker's outbox, where the worker takes them as a local run's and
// parks the task with those questions; whether the agent then answered
// or failed. None of it is the task's work.
func TestRunnerCarriesAskedQuestions(t *testing.T) {
	for name, end := range map[string]error{"answered": nil, "failed": errors.New("the agent crashed")} {
		t.Run(name, func(t *testing.T) {
			cl := newCluster(t)
			outbox := t.TempDir()
			got := cl.inPod(t, agent.Request{Prompt: "do it", SessionID: "s1", Outbox: outbox}, askingAgent{end: end})
			if got.err != nil {
				t.Fatal(got.err)
			}
			qs, err := mcp.TakeAsked(outbox)
			if err != nil || len(qs) != 1 || qs[0].Tool != "Bash(make deploy)" {
				t.Fatalf("the worker's outbox has %+v (%v), want the question asked in the pod", qs, err)
			}
			if added, err := mcp.TakeAdded(outbox); err != nil || len(added) != 1 || added[0].Title != "Write the deploy doc" {
				t.Fatalf("the worker's outbox adds %+v (%v), want the task added in the pod", added, err)
			}
			if gittest.Exists(cl.wt, result.OutboxDir) {
				t.Fatal("the pod's outbox reached the worktree")
			}
		})
	}
}
