// Package watch wakes bh's worker when a task file changes: the idle
// loop, to claim, and each run's heartbeat, to notice a human taking its
// task back.
package watch

import (
	"fmt"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// Watcher watches a folder of task files. The store writes by atomic
// rename, which shows up as a create or rename there.
type Watcher struct {
	fs   *fsnotify.Watcher
	wake chan struct{} // the loop's: buffered, many changes while busy make one wake-up
	done chan struct{}

	mu   sync.Mutex
	subs map[chan struct{}]bool // the heartbeats'
}

// New watches the task files in dir.
func New(dir string) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch tasks: %w", err)
	}
	if err := fw.Add(dir); err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	w := &Watcher{fs: fw, wake: make(chan struct{}, 1), done: make(chan struct{}), subs: map[chan struct{}]bool{}}
	go w.loop()
	return w, nil
}

func (w *Watcher) loop() {
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

func (w *Watcher) poke() {
	signal(w.wake)
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := range w.subs {
		signal(c)
	}
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Wake is the loop's wake-ups: many changes while it is busy make one.
func (w *Watcher) Wake() <-chan struct{} { return w.wake }

// Subscribe gives a run its own wake-ups, until cancel.
func (w *Watcher) Subscribe() (c <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	w.subs[ch] = true
	w.mu.Unlock()
	return ch, func() {
		w.mu.Lock()
		delete(w.subs, ch)
		w.mu.Unlock()
	}
}

// Drain forgets wake-ups that came before a rescan about to happen anyway.
func (w *Watcher) Drain() {
	select {
	case <-w.wake:
	default:
	}
}

// Close stops watching.
func (w *Watcher) Close() {
	w.fs.Close()
	<-w.done
}
