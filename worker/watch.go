package worker

import (
	"fmt"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// watcher wakes an idle worker when a task file changes. The store writes
// by atomic rename, which shows up as a create or rename in .bh/tasks.
type watcher struct {
	fs   *fsnotify.Watcher
	wake chan struct{} // buffered: many changes while busy make one wake-up
	done chan struct{}
}

func watch(dir string) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch tasks: %w", err)
	}
	if err := fw.Add(dir); err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	w := &watcher{fs: fw, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.loop()
	return w, nil
}

func (w *watcher) loop() {
	defer close(w.done)
	for {
		select {
		case e, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if strings.HasSuffix(e.Name, ".yaml") && e.Op != fsnotify.Chmod {
				w.poke()
			}
		case _, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			// An overflow loses events, not tasks: a wake-up rescans all,
			// and the slow tick covers a watcher that stopped working.
			w.poke()
		}
	}
}

func (w *watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// drain forgets wake-ups that came before a rescan about to happen anyway.
func (w *watcher) drain() {
	select {
	case <-w.wake:
	default:
	}
}

func (w *watcher) close() {
	w.fs.Close()
	<-w.done
}
