package web

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/fsnotify/fsnotify"
)

// debounce gathers a burst of file events (a task rewritten, a run's files
// written one after the other) into one notice, well within the second a
// change may take to reach the browser.
const debounce = 50 * time.Millisecond

// Watch sends every page a notice when a task, or a run, of a registered
// repository changes, and starts watching repositories registered later,
// until ctx ends.
func (s *Server) Watch(ctx context.Context) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch tasks: %w", err)
	}
	w := &watch{fw: fw, s: s, keys: map[string]string{}}
	w.addRepos()
	if reg := config.RegistryPath(); reg != "" {
		fw.Add(filepath.Dir(reg)) // absent until the first bh init: repositories then stay as they are
	}
	go func() {
		<-ctx.Done()
		fw.Close()
	}()
	go w.loop()
	return nil
}

type watch struct {
	fw   *fsnotify.Watcher
	s    *Server
	keys map[string]string // a watched folder: its repository's key
}

// addRepos watches the tasks and runs of every registered repository not
// watched yet. A repository that moved or vanished is skipped, as in the
// inbox.
func (w *watch) addRepos() {
	roots, _ := w.s.o.Repos()
	for _, root := range roots {
		// the tasks; bh's local folder, for a runs folder made later; each
		// task's run folder, for its run log as it grows
		local := store.LocalOf(root)
		for _, dir := range []string{filepath.Join(root, ".bh", "tasks"), local, filepath.Join(local, "runs")} {
			w.add(dir, config.RepoKey(root))
		}
		runs, _ := os.ReadDir(filepath.Join(local, "runs"))
		for _, d := range runs {
			// a run under way began its log lately: old folders cost watches for nothing
			if fi, err := d.Info(); err == nil && d.IsDir() && time.Since(fi.ModTime()) < 24*time.Hour {
				w.add(filepath.Join(local, "runs", d.Name()), config.RepoKey(root))
			}
		}
	}
}

// add watches folder dir of the repository whose key is key, once.
func (w *watch) add(dir, key string) {
	if _, ok := w.keys[dir]; !ok && w.fw.Add(dir) == nil {
		w.keys[dir] = key
	}
}

func (w *watch) loop() {
	changed := map[string]bool{}
	var flush <-chan time.Time
	for {
		select {
		case e, ok := <-w.fw.Events:
			if !ok {
				return
			}
			key, ok := w.matters(e)
			if !ok {
				continue
			}
			changed[key] = true
		case _, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			// Events were lost: every page reads again.
			changed["*"] = true
		case <-flush:
			b, _ := json.Marshal(map[string][]string{"repos": slices.Sorted(maps.Keys(changed))})
			w.s.hub.publish(string(b))
			clear(changed)
			flush = nil
		}
		if flush == nil && len(changed) > 0 {
			flush = time.After(debounce)
		}
	}
}

// matters says whether e changed what a page shows, and where: a task
// file, a run's files (steps.jsonl too: a running task's page shows its
// latest steps live), the registry.
func (w *watch) matters(e fsnotify.Event) (string, bool) {
	if e.Op == fsnotify.Chmod {
		return "", false
	}
	dir, name := filepath.Dir(e.Name), filepath.Base(e.Name)
	if e.Name == config.RegistryPath() {
		w.addRepos()
		return "*", true
	}
	key, ok := w.keys[dir]
	switch {
	case !ok:
		return "", false
	case filepath.Base(dir) == "tasks":
		return key, strings.HasSuffix(name, ".yaml")
	case filepath.Base(dir) == "bh":
		if name == "runs" {
			w.addRepos()
		}
		return key, false
	case filepath.Base(dir) == "runs" && e.Op.Has(fsnotify.Create):
		if fi, err := os.Stat(e.Name); err == nil && fi.IsDir() {
			w.add(e.Name, key) // a task's first run: its log comes next
		}
	}
	return key, true
}
