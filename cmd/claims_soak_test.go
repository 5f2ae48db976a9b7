package cmd

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	soak    = flag.Bool("soak", false, "run the two-machine kill soak (TestTwoMachinesUnderKillsRunEachTaskOnce)")
	torture = flag.Bool("torture", false, "the soak as the torture run: 60 tasks, 60 kills, -j 3, a user at work in clone a")
)

// askSteps draft, ask, and finish from the draft once answered.
const askSteps = `on noanswer go-ahead
sh echo draft > "$BH_TASK_ID.draft"
print {"status":"needs_input","summary":"drafted","question":"Go ahead?"}
on answer go-ahead
sh test -f "$BH_TASK_ID.draft" && echo done > "$BH_TASK_ID.txt"
print {"status":"completed","summary":"done"}
`

const soakPlans = "-- ask.plan --\nmatch Ask soak\n" + askSteps + `-- do.plan --
match Do soak
sh echo done > "$BH_TASK_ID.txt"
print {"status":"completed","summary":"done"}
`

// TestTwoMachinesUnderKillsRunEachTaskOnce: two machines' workers share
// one remote over 30 tasks (8 with -short), a third of which ask a
// question that a third clone answers while they run, and the workers
// are SIGKILLed at random instants and restarted. No task is run afresh
// twice (a resumed run in the task's session is fine) and none is lost:
// each lands on the remote's main exactly once. BH_SOAK_SEED repeats a
// run's kill schedule; BH_SOAK_KEEP=DIR keeps a failed run's files.
func TestTwoMachinesUnderKillsRunEachTaskOnce(t *testing.T) {
	if !*soak && !*torture {
		t.Skip("the soak runs with -soak, the torture run with -torture (go test ./cmd -run TestTwoMachinesUnderKills " +
			"-torture): minutes long, too long for the suite")
	}
	n, maxKills, jobs := 30, 20, "2"
	if testing.Short() {
		n, maxKills = 8, 5
	}
	if *torture {
		n, maxKills, jobs = 60, 60, "3"
	}
	seed := time.Now().UnixNano()
	if v := os.Getenv("BH_SOAK_SEED"); v != "" {
		seed, _ = strconv.ParseInt(v, 10, 64)
	}
	t.Logf("seed %d (BH_SOAK_SEED=%d repeats it)", seed, seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	var titles []string
	for i := range n {
		if i%3 == 0 {
			titles = append(titles, fmt.Sprintf("Ask soak %02d", i))
		} else {
			titles = append(titles, fmt.Sprintf("Do soak %02d", i))
		}
	}
	// The lease is the fallback for a machine gone for good: another takes
	// its claims over once it runs out, with whatever task files reached
	// the remote. A killed worker is not a machine gone (it restarts and
	// takes its claims back), but the torture's 60 kills in a minute or two
	// can keep one machine's workers from renewing for 20s, and then the
	// other runs its parked tasks afresh, as designed. So the torture has
	// the default lease, which its kills cannot outlast.
	lease := "20s"
	if *torture {
		lease = "2m"
	}
	c := newTwoClones(t, "agent:\n  kind: command\n  command: [fakeagent]\nremote: origin\nautoSync: 1s\nlease: "+lease+"\n",
		soakPlans, titles, "a", "b", "c")

	var user *userUnderFire
	if *torture {
		user = newUserUnderFire(t, c.dir("a"), rng)
	}

	// The workers: each restarted as soon as it dies, until stop.
	var mu sync.Mutex
	procs := map[string]*exec.Cmd{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, m := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				cmd := c.cmd(m, nil, "worker", "-j", jobs)
				log, _ := os.Create(filepath.Join(c.root, fmt.Sprintf("%s-%d.out", m, i)))
				cmd.Stdout, cmd.Stderr = log, log
				mu.Lock()
				select {
				case <-stop:
					mu.Unlock()
					log.Close()
					return
				default:
				}
				err := cmd.Start()
				procs[m] = cmd
				mu.Unlock()
				if err != nil {
					t.Errorf("start %s's worker: %v", m, err)
					return
				}
				cmd.Wait()
				log.Close()
			}
		}()
	}

	// The third party answers every question it sees, from clone c.
	answered := map[string]bool{}
	answer := func() {
		c.bh(t, "c", "sync")
		for _, id := range c.ids {
			b, _ := os.ReadFile(filepath.Join(c.dir("c"), ".bh", "tasks", id+".yaml"))
			if strings.Contains(string(b), "\nstate: awaiting_input\n") {
				if code, out := c.bh(t, "c", "respond", id, "go-ahead"); code == 0 {
					answered[id] = true
				} else {
					t.Logf("respond %s: %s", id, out)
				}
			}
		}
		c.bh(t, "c", "sync")
	}
	closed := func() int {
		k := 0
		for _, id := range c.ids {
			out, err := exec.Command("git", "--git-dir", c.remote, "show", "main:.bh/tasks/"+id+".yaml").Output()
			if err == nil && strings.Contains(string(out), "\nstate: closed\n") {
				k++
			}
		}
		return k
	}

	// Random kills on a schedule of their own (the loop below is as slow
	// as its syncs, and would bound the kills by the run's length), every
	// one of them spent, then none: every task must close.
	kills := 0
	spent := make(chan struct{})
	go func() {
		defer close(spent)
		krng := rand.New(rand.NewPCG(uint64(seed), 1)) // the user's rng is the loop's
		for k := 0; k < maxKills; {
			select {
			case <-stop:
				return
			case <-time.After(killDelay(krng)):
			}
			m := []string{"a", "b"}[krng.IntN(2)]
			mu.Lock()
			if p := procs[m]; p != nil && p.Process != nil && p.ProcessState == nil && p.Process.Signal(syscall.SIGKILL) == nil {
				k++
				kills = k
			}
			mu.Unlock()
		}
	}()
	t.Cleanup(func() { // a failed test leaves no worker behind
		mu.Lock()
		defer mu.Unlock()
		select {
		case <-stop:
		default:
			close(stop)
		}
		for _, p := range procs {
			p.Process.Signal(syscall.SIGKILL)
		}
	})
	within := 8 * time.Minute
	if v, err := time.ParseDuration(os.Getenv("BH_SOAK_WITHIN")); err == nil {
		within = v
	}
	defer func() {
		if t.Failed() {
			soakReport(t, c)
		}
	}()
	eventually(t, within, "not every task closed on the remote, or not every kill was spent", func() bool {
		answer()
		if user != nil {
			for range 3 {
				user.act(t)
			}
		}
		select {
		case <-spent:
			return closed() == n
		default:
			return false
		}
	})
	mu.Lock()
	close(stop)
	for _, p := range procs {
		p.Process.Signal(syscall.SIGINT) // a last sync, then out
	}
	mu.Unlock()
	wg.Wait()
	for _, m := range []string{"a", "b", "c"} {
		if code, out := c.bh(t, m, "sync"); code != 0 {
			t.Errorf("bh sync in %s: exit %d\n%s", m, code, out)
		}
	}

	if user != nil {
		user.check(t)
	}
	c.ownParkedWork(t)
	fresh, strange := c.runs(t)
	landed := c.landed(t)
	twice, lost := 0, 0
	for title, id := range c.ids {
		if fresh[id] > 1 || strange[id] > 0 {
			twice++
			t.Errorf("%s (%s) ran afresh %d times, %d times in another session", title, id, fresh[id], strange[id])
		}
		if landed[id] != 1 {
			lost++
			t.Errorf("%s (%s) landed %d times on the remote's main", title, id, landed[id])
		}
	}
	asks := 0
	for _, title := range titles {
		if strings.HasPrefix(title, "Ask") {
			asks++
			if !answered[c.ids[title]] {
				t.Errorf("%s closed without the third party's answer", title)
			}
		}
	}
	mu.Lock()
	t.Logf("tasks %d (%d asked and were answered mid-run), kills %d, run twice %d, lost %d", n, asks, kills, twice, lost)
	mu.Unlock()
	c.warnings(t)
}

// warnings logs how many warnings the workers printed, by kind (their
// text up to the first colon after "warning: "): a run that passes may
// still have struggled.
func (c *twoClones) warnings(t *testing.T) {
	kinds := map[string]int{}
	logs, _ := filepath.Glob(filepath.Join(c.root, "[ab]-*.out"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		for _, line := range strings.Split(string(b), "\n") {
			if _, w, ok := strings.Cut(line, "warning: "); ok {
				kind, rest, _ := strings.Cut(w, ": ")
				if kind == "sync" {
					kind += ": " + strings.SplitN(strings.TrimPrefix(rest, "sync: "), ":", 2)[0]
				}
				kinds[kind]++
			}
		}
	}
	t.Logf("worker warnings: %v", kinds)
}

// ownParkedWork checks every parked diff the workers printed ("parked:
// a, b (bh diff ID)"): it holds the task's own files only, never what
// other tasks landed meanwhile (which landing it would undo or redo).
func (c *twoClones) ownParkedWork(t *testing.T) {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(c.root, "[ab]-*.out"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		for _, line := range strings.Split(string(b), "\n") {
			paths, id, ok := strings.Cut(strings.TrimSpace(line), " (bh diff ")
			paths, isPark := strings.CutPrefix(paths, "parked: ")
			if !ok || !isPark {
				continue
			}
			id = strings.TrimSuffix(id, ")")
			for _, p := range strings.Split(paths, ", ") {
				if !strings.HasPrefix(p, id+".") {
					t.Errorf("%s: %s's parked work holds %s: %s", filepath.Base(l), id, p, line)
				}
			}
		}
	}
}

// killDelay is the time to the next kill: up to a second and a half.
func killDelay(rng *rand.Rand) time.Duration {
	return time.Duration(100+rng.IntN(1400)) * time.Millisecond
}

// soakReport logs, for a failed run, each task's state on the remote and
// the workers' last lines. BH_SOAK_KEEP=DIR keeps the run's clones, remote
// and logs there, for a post-mortem.
func soakReport(t *testing.T, c *twoClones) {
	if dir := os.Getenv("BH_SOAK_KEEP"); dir != "" {
		if out, err := exec.Command("cp", "-a", c.root, dir).CombinedOutput(); err != nil {
			t.Logf("keep the run in %s: %v %s", dir, err, out)
		} else {
			t.Logf("the run is kept in %s", filepath.Join(dir, filepath.Base(c.root)))
		}
	}
	for title, id := range c.ids {
		out, _ := exec.Command("git", "--git-dir", c.remote, "show", "main:.bh/tasks/"+id+".yaml").Output()
		claim, _ := exec.Command("git", "--git-dir", c.remote, "show", "refs/bh/claims/"+id+":claim.json").Output()
		st := ""
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, "state: ") {
				st = l
			}
		}
		t.Logf("%s %s: %s, claim %s", id, title, st, strings.Join(strings.Fields(string(claim)), " "))
	}
	logs, _ := filepath.Glob(filepath.Join(c.root, "[ab]-*.out"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		t.Logf("%s:\n%s", filepath.Base(l), strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
	b, _ := os.ReadFile(filepath.Join(c.agentDir, "runs.log"))
	t.Logf("runs.log:\n%s", b)
}
