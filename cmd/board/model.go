package board

import (
	"slices"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/outage"

	tea "github.com/charmbracelet/bubbletea"
)

// boardModel is bh board: the tasks as the store last had them, the
// selected one, and at most one dialog (questions, a confirmation) at work.
type boardModel struct {
	b     Options
	s     *store.Store
	watch *boardWatch
	feed  *store.StepFeed
	steps map[string][]store.StepLine // each running task's latest steps

	rows    []boardRow
	sel     string // the selected task's id: it stays selected as rows move
	now     time.Time
	loadErr error
	held    *outage.Hold // the usage limit holding the queue back, if any

	width, height int
	note          string // what the last action did
	noteErr       bool
	dlg           *boardDialog
}

// boardRow is one line of the list: a task under its section.
type boardRow struct {
	section string
	t       *task.Task
}

const (
	secWaiting = "waiting on you"
	secRunning = "running"
	secReady   = "ready"
	secReview  = "in review" // pull requests the worker shepherds (land: pr)
)

// stepsKept is how many of a running agent's steps the pane can show.
const stepsKept = 20

func newBoardModel(b Options) *boardModel {
	s := b.Store
	m := &boardModel{b: b, s: s, watch: newBoardWatch(s), steps: map[string][]store.StepLine{},
		feed: &store.StepFeed{Path: store.StepsPath(s)}} // from the start: steps of runs under way
	m.reload()
	return m
}

func (m *boardModel) close() { m.watch.close() }

func (m *boardModel) Init() tea.Cmd { return m.watch.wait }

// reload reads the tasks and new steps again, and sorts them into sections.
func (m *boardModel) reload() {
	m.now = m.b.Now()
	m.held = outage.HeldNow(m.s, m.now)
	was := m.selected()
	tasks, _, err := m.s.ListBrief()
	m.loadErr = err
	if err != nil {
		return
	}
	for _, st := range m.feed.Read() {
		l := append(m.steps[st.TaskID], st)
		m.steps[st.TaskID] = l[max(0, len(l)-stepsKept):]
	}
	var waiting, running, review []*task.Task
	for _, t := range tasks {
		switch t.State {
		case task.AwaitingInput:
			waiting = append(waiting, t)
		case task.InProgress:
			running = append(running, t)
		case task.InReview:
			review = append(review, t)
		}
	}
	task.SortQueue(waiting)
	slices.SortStableFunc(running, func(a, b *task.Task) int { return runningSince(a).Compare(runningSince(b)) })
	m.rows = m.rows[:0]
	for _, sec := range []struct {
		name  string
		tasks []*task.Task
	}{{secWaiting, waiting}, {secRunning, running}, {secReview, review}, {secReady, task.Ready(tasks)}} {
		for _, t := range sec.tasks {
			m.rows = append(m.rows, boardRow{sec.name, t})
		}
	}
	for id := range m.steps { // finished runs' steps go
		if !slices.ContainsFunc(running, func(t *task.Task) bool { return t.ID == id }) {
			delete(m.steps, id)
		}
	}
	if m.selected() < 0 && was >= 0 && len(m.rows) > 0 { // it left the board: its neighbour, not the top
		m.sel = m.rows[min(was, len(m.rows)-1)].t.ID
	}
	m.move(0)
}

// runningSince is when t's current run started.
func runningSince(t *task.Task) time.Time {
	if t.Lease != nil && !t.Lease.StartedAt.IsZero() {
		return t.Lease.StartedAt
	}
	return ui.StateSince(t)
}

// selected is the index of the selected row, -1 when there is none.
func (m *boardModel) selected() int {
	return slices.IndexFunc(m.rows, func(r boardRow) bool { return r.t.ID == m.sel })
}

// move selects the row by rows away from the selected one (or the first).
func (m *boardModel) move(by int) {
	if len(m.rows) == 0 {
		m.sel = ""
		return
	}
	i := max(m.selected(), 0) + by
	m.sel = m.rows[min(max(i, 0), len(m.rows)-1)].t.ID
}

// current is the selected row, if any.
func (m *boardModel) current() (boardRow, bool) {
	if i := m.selected(); i >= 0 {
		return m.rows[i], true
	}
	return boardRow{}, false
}

func (m *boardModel) say(text string, isErr bool) { m.note, m.noteErr = text, isErr }
