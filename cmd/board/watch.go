package board

import (
	"os"
	"path/filepath"
	"time"

	"github.com/bh-tracker/bh/task/store"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/fsnotify/fsnotify"
)

// boardWatch tells the board when task files or the agents' steps change,
// and ticks each second so that elapsed times move.
type boardWatch struct {
	w *fsnotify.Watcher // nil where the system cannot watch: every tick reloads
}

// Messages of the watch: something changed, or a second went by.
type (
	boardChanged struct{}
	boardTick    struct{}
)

func newBoardWatch(s *store.Store) *boardWatch {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return &boardWatch{}
	}
	runs := s.Local("runs")
	os.MkdirAll(runs, 0o755)
	for _, dir := range []string{filepath.Join(s.Dir, "tasks"), runs} {
		if err := w.Add(dir); err != nil {
			w.Close()
			return &boardWatch{}
		}
	}
	return &boardWatch{w: w}
}

// wait is a tea.Cmd: it returns with the next change, or after a second.
// The board runs it again after each of its messages, so one is pending.
func (bw *boardWatch) wait() tea.Msg {
	tick := time.After(time.Second)
	if bw.w == nil {
		<-tick
		return boardChanged{}
	}
	select {
	case _, ok := <-bw.w.Events:
		if !ok {
			return nil
		}
		bw.drain()
		return boardChanged{}
	case _, ok := <-bw.w.Errors: // events were lost: read everything again
		if !ok {
			return nil
		}
		return boardChanged{}
	case <-tick:
		return boardTick{}
	}
}

// drain takes the events that came with the first: a worker writes a task
// file and its steps in bursts, which one reload shows.
func (bw *boardWatch) drain() {
	for end := time.After(20 * time.Millisecond); ; {
		select {
		case _, ok := <-bw.w.Events:
			if !ok {
				return
			}
		case <-end:
			return
		}
	}
}

func (bw *boardWatch) close() {
	if bw.w != nil {
		bw.w.Close()
	}
}
