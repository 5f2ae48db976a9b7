package store

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

// The test binary doubles as a bh process: with childEnv set, TestMain
// runs childMain instead of the tests.
const childEnv = "BH_TASK_TEST_CHILD"

// childMain is one process of TestManyProcesses: "update" appends a label
// per update to the tasks round-robin; "read" lists and gets in a loop
// until told to stop, failing on any file that does not decode. For
// BenchmarkProcess, "list" and "brief" list the store once.
func childMain() int {
	s, err := Find(os.Getenv("BH_TEST_ROOT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ids := strings.Split(os.Getenv("BH_TEST_IDS"), ",")
	n, _ := strconv.Atoi(os.Getenv("BH_TEST_N"))
	me := os.Getenv(childEnv)
	switch {
	case me == "stat": // the floor under a warm list: read the folder, stat every file
		d, err := os.Open(filepath.Join(s.Dir, "tasks"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		names, _ := readNames(d)
		fmt.Println(len(statAll(d, names)))
	case me == "list" || me == "brief":
		list := map[string]func() ([]*task.Task, []error, error){"list": s.List, "brief": s.ListBrief}[me]
		tasks, _, err := list()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(len(tasks))
	case strings.HasPrefix(me, "update"):
		for i := range n {
			label := fmt.Sprintf("%s-%d", me, i)
			if _, err := s.Update(ids[i%len(ids)], func(t *task.Task) error {
				t.Labels = append(t.Labels, label)
				t.Record(time.Now(), task.Event{Kind: task.EventUpdated, Text: label})
				return nil
			}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	case strings.HasPrefix(me, "read"):
		stop := os.Getenv("BH_TEST_STOP")
		for reads := 0; ; reads++ {
			if _, err := os.Stat(stop); err == nil && reads > 0 {
				fmt.Print(reads)
				return 0
			}
			tasks, bad, err := s.List()
			if err != nil || len(bad) > 0 || len(tasks) != len(ids) {
				fmt.Fprintln(os.Stderr, "list:", err, bad, len(tasks))
				return 1
			}
			for _, id := range ids {
				if _, err := s.Get(id); err != nil {
					fmt.Fprintln(os.Stderr, "get:", err)
					return 1
				}
			}
		}
	}
	return 0
}

// TestManyProcesses races 8 writer processes, 50 updates each (15 under
// -short), on the same 3 tasks, with 2 reader processes: no update may be
// lost and no reader may see a torn file.
func TestManyProcesses(t *testing.T) {
	const writers = 8
	updates := 50
	if testing.Short() {
		updates = 15
	}
	s := newStore(t)
	var ids []string
	for i := range 3 {
		tk, err := s.Create(&task.Task{Title: fmt.Sprint("shared ", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tk.ID)
	}
	stop := t.TempDir() + "/stop"
	env := append(os.Environ(), "BH_TEST_ROOT="+s.Root, "BH_TEST_IDS="+strings.Join(ids, ","),
		"BH_TEST_N="+strconv.Itoa(updates), "BH_TEST_STOP="+stop)
	run := func(name string) *exec.Cmd {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(slices.Clip(env), childEnv+"="+name)
		c.Stderr = os.Stderr
		return c
	}
	var readers []*exec.Cmd
	var outs []*strings.Builder
	for i := range 2 {
		c := run(fmt.Sprint("read", i))
		var out strings.Builder
		c.Stdout = &out
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		readers, outs = append(readers, c), append(outs, &out)
	}
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Go(func() { errs[w] = run(fmt.Sprint("update", w)).Run() })
	}
	wg.Wait()
	writeFile(t, stop, "")
	for i, c := range readers {
		if err := c.Wait(); err != nil {
			t.Errorf("reader %d: %v", i, err)
		}
		t.Logf("reader %d read the store %s times", i, outs[i])
	}
	for w, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", w, err)
		}
	}
	var labels []string
	for _, id := range ids {
		tk, err := s.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		labels = append(labels, tk.Labels...)
		if len(tk.History) != 1+len(tk.Labels) {
			t.Errorf("%s: %d events for %d labels", id, len(tk.History), len(tk.Labels))
		}
	}
	slices.Sort(labels)
	if n := len(slices.Compact(slices.Clone(labels))); n != len(labels) {
		t.Fatalf("%d labels, %d distinct: an update was applied twice", len(labels), n)
	}
	for w := range writers {
		for i := range updates {
			if _, ok := slices.BinarySearch(labels, fmt.Sprintf("update%d-%d", w, i)); !ok {
				t.Fatalf("update%d-%d is lost", w, i)
			}
		}
	}
}
