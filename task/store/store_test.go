package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/task"
)

func TestCreateUpdateGet(t *testing.T) {
	s := newStore(t)
	tk, err := s.Create(&task.Task{Title: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if !task.ValidID(tk.ID) || !strings.HasPrefix(tk.ID, "tm-") || tk.State != task.Open || tk.Type != "code" || tk.Priority != "P2" ||
		len(tk.History) != 1 || tk.History[0].Kind != task.EventCreated {
		t.Fatalf("created %+v", tk)
	}
	if fi, err := os.Stat(s.Path(tk.ID)); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("new task file: %v %v", fi.Mode(), err)
	}
	os.Chmod(s.Path(tk.ID), 0o664) // a mode the user chose survives updates
	got, err := s.Update(tk.ID, func(t *task.Task) error { return t.SetState(task.InProgress, s.now(), "me", "") })
	if err != nil || got.State != task.InProgress {
		t.Fatalf("update: %v %v", got, err)
	}
	if fi, _ := os.Stat(s.Path(tk.ID)); fi.Mode().Perm() != 0o664 {
		t.Fatalf("update changed the mode to %v", fi.Mode())
	}
	back, err := s.Get(tk.ID)
	if err != nil || back.State != task.InProgress || len(back.History) != 2 || !back.UpdatedAt.After(tk.CreatedAt) {
		t.Fatalf("get: %+v %v", back, err)
	}
	// A failing fn writes nothing.
	before := readFile(t, s.Path(tk.ID))
	boom := errors.New("boom")
	if _, err := s.Update(tk.ID, func(t *task.Task) error { t.Title = "changed"; return boom }); !errors.Is(err, boom) {
		t.Fatalf("want boom, got %v", err)
	}
	if !bytes.Equal(before, readFile(t, s.Path(tk.ID))) {
		t.Fatal("a failed update changed the file")
	}
	// Put refuses what it could not read back, and writes nothing.
	bad := *back
	bad.State = "done"
	if err := s.Put(&bad); err == nil || !bytes.Equal(before, readFile(t, s.Path(tk.ID))) {
		t.Fatalf("put of a bad task: %v", err)
	}
	var nf *task.NotFoundError
	if _, err := s.Get("tm-none"); !errors.As(err, &nf) {
		t.Fatalf("get missing: %v", err)
	}
	if _, err := s.Update("tm-none", func(*task.Task) error { return nil }); !errors.As(err, &nf) {
		t.Fatalf("update missing: %v", err)
	}
	if _, err := os.Stat(s.Path("tm-none")); err == nil {
		t.Fatal("update of a missing task created it")
	}
}

// badFiles are task files bh cannot read, by what is wrong with them.
var badFiles = map[string]string{
	"tm-bad1": "id: tm-bad1\ntitle: x\n  state: open\n",
	"tm-bad2": "id: tm-bad2\ntitle: x\n<<<<<<< HEAD\nstate: open\n=======\nstate: closed\n>>>>>>> theirs\n",
	"tm-bad3": "id: tm-bad3\ntitle: x\ntype: code\npriority: P2\nstate: finished\n",
	"tm-bad4": "id: tm-other\ntitle: x\ntype: code\npriority: P2\nstate: open\n",
}

func TestBadFilesAreNeverRewritten(t *testing.T) {
	s := newStore(t)
	good, err := s.Create(&task.Task{Title: "good"})
	if err != nil {
		t.Fatal(err)
	}
	for id, body := range badFiles {
		writeFile(t, s.Path(id), body)
	}
	for round := range 2 { // the second round runs from the cache
		tasks, bad, err := s.List()
		if err != nil || len(tasks) != 1 || tasks[0].ID != good.ID || len(bad) != len(badFiles) {
			t.Fatalf("round %d: %d tasks, bad %v, %v", round, len(tasks), bad, err)
		}
		for i, err := range bad {
			var fe *task.FileError
			id := slices.Sorted(mapsKeys(badFiles))[i]
			if !errors.As(err, &fe) || fe.Path != ".bh/tasks/"+id+".yaml" || fe.Line == 0 {
				t.Fatalf("bad[%d] = %v", i, err)
			}
		}
	}
	for id, body := range badFiles {
		_, err := s.Update(id, func(t *task.Task) error { t.Title = "overwritten"; return nil })
		var fe *task.FileError
		if !errors.As(err, &fe) {
			t.Errorf("update %s: want FileError, got %v", id, err)
		}
		if got := readFile(t, s.Path(id)); string(got) != body {
			t.Errorf("update %s changed the file:\n%s", id, got)
		}
	}
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestLocalFilesStayOutOfGit drives every write path and the cache, then
// asks git itself what it sees.
func TestLocalFilesStayOutOfGit(t *testing.T) {
	s := newStore(t)
	var ids []string
	for range 3 {
		tk, err := s.Create(&task.Task{Title: "t"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tk.ID)
	}
	if _, err := s.Update(ids[0], func(t *task.Task) error { t.Labels = []string{"x"}; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.List(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{s.Local("locks"), s.Local("cache"), filepath.Join(s.Dir, "tmp")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s was not used: %v", p, err)
		}
	}
	// Local state also for a worker and its runs.
	writeFile(t, s.Local("worker.lock"), "")
	os.MkdirAll(RunDir(s, ids[0]), 0o755)
	writeFile(t, RunDir(s, ids[0], "out.json"), "{}")

	want := []string{"?? .bh/.gitattributes", "?? .bh/.gitignore", "?? .bh/config.yaml", "?? .bh/tasks/.gitkeep"}
	for _, id := range ids {
		want = append(want, "?? .bh/tasks/"+id+".yaml")
	}
	slices.Sort(want)
	status := func() []string {
		out := strings.Split(strings.TrimSpace(git(t, s.Root, "status", "--porcelain", "--untracked-files=all")), "\n")
		slices.Sort(out)
		return out
	}
	if got := status(); !slices.Equal(got, want) {
		t.Fatalf("git status:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Even with .bh/.gitignore gone, locks/, cache/ and tmp/ ignore themselves.
	os.Remove(filepath.Join(s.Dir, ".gitignore"))
	for _, line := range status() {
		for _, d := range []string{"locks/", "cache/", "tmp/"} {
			if strings.Contains(line, ".bh/"+d) {
				t.Errorf("git status shows %s", line)
			}
		}
	}
}

func TestCreateConcurrently(t *testing.T) {
	s := newStore(t)
	var wg sync.WaitGroup
	ids := make([][]string, 4)
	for g := range ids {
		wg.Go(func() {
			for range 50 {
				tk, err := s.Create(&task.Task{Title: "parallel"})
				if err != nil {
					t.Error(err)
					return
				}
				ids[g] = append(ids[g], tk.ID)
			}
		})
	}
	wg.Wait()
	all := slices.Concat(ids...)
	slices.Sort(all)
	if len(slices.Compact(all)) != 200 {
		t.Fatalf("%d distinct ids for 200 tasks", len(all))
	}
	tasks, bad, err := s.List()
	if err != nil || len(bad) > 0 || len(tasks) != 200 {
		t.Fatalf("%d tasks, %v, %v", len(tasks), bad, err)
	}
}

// A title is one line: a second line could pose as a commit trailer.
func TestTitleIsOneLine(t *testing.T) {
	s := newStore(t)
	if _, err := s.Create(&task.Task{Title: "fix it\nbh-task: tm-zzzz"}); err == nil || !strings.Contains(err.Error(), "one line") {
		t.Fatalf("create: %v", err)
	}
	tk, err := s.Create(&task.Task{Title: "fine"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(tk.ID, func(t *task.Task) error { t.Title = "a\rb"; return nil }); err == nil {
		t.Fatal("update wrote a two-line title")
	}
}
