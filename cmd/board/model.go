package board

import (
	"slices"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/cmd/undo"
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
	held    string // what holds the queue back (a usage limit, the day's budget), if anything

	width, height int
	note          string // what the last action did
	noteErr       bool
	dlg           *boardDialog
	text          *boardText // the selected task's change or run, when open

	opened   map[string]bool               // the tasks whose change the human opened (d)
	notes    map[string][]task.LineComment // comments on lines of a change, for its gate's no
	holds    *undo.Holds                   // answers held for their undo window
	heldID   string                        // the task whose answer was held last: u undoes it
	recorded chan boardDone                // held answers, recorded at their window's end
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
	secLater   = "scheduled" // open, not to run before their time (every:)
)

// stepsKept is how many of a running agent's steps the pane can show.
const stepsKept = 20

func newBoardModel(b Options) *boardModel {
	s := b.Store
	m := &boardModel{b: b, s: s, watch: newBoardWatch(s), steps: map[string][]store.StepLine{},
		feed:   &store.StepFeed{Path: store.StepsPath(s)}, // from the start: steps of runs under way
		opened: map[string]bool{}, notes: map[string][]task.LineComment{},
		holds: undo.New(b.Now, nil), recorded: make(chan boardDone, 8)}
	m.reload()
	return m
}

func (m *boardModel) close() { m.watch.close() }

func (m *boardModel) Init() tea.Cmd { return tea.Batch(m.watch.wait, m.waitRecorded) }

// reload reads the tasks and new steps again, and sorts them into sections.
func (m *boardModel) reload() {
	m.now = m.b.Now()
	m.held = outage.HoldsBack(m.s, m.now)
	was, old := m.selected(), m.rows
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
	m.rows = nil
	for _, sec := range []struct {
		name  string
		tasks []*task.Task
	}{{secWaiting, waiting}, {secRunning, running}, {secReview, review}, {secReady, task.Ready(tasks, m.now)},
		{secLater, scheduled(tasks, m.now)}} {
		for _, t := range sec.tasks {
			m.rows = append(m.rows, boardRow{sec.name, t})
		}
	}
	m.forget(running, waiting)
	if m.selected() < 0 && was >= 0 { // it left the board: its neighbour, not the top
		m.sel = m.successor(old, was)
	}
	m.refreshText()
	m.move(0)
}

// refreshText reads the run shown again; a change shown closes once its
// task has moved on from it.
func (m *boardModel) refreshText() {
	switch {
	case m.text == nil:
	case m.text.run && m.readRun(m.text) != nil:
		m.text = nil
	case !m.text.run && m.staleChange():
		m.say(m.text.t.ID+" has moved on: the change shown was another round's (d shows the new one)", true)
		m.text = nil
	}
}

// forget drops what the board kept of tasks that moved on: the steps of
// finished runs; the change opened, and its comments, of tasks answered
// (the next round's change is another).
func (m *boardModel) forget(running, waiting []*task.Task) {
	has := func(ts []*task.Task, id string) bool {
		return slices.ContainsFunc(ts, func(t *task.Task) bool { return t.ID == id })
	}
	for id := range m.steps {
		if !has(running, id) {
			delete(m.steps, id)
		}
	}
	for id := range m.opened {
		if !has(waiting, id) {
			delete(m.opened, id)
			delete(m.notes, id)
		}
	}
}

// successor is the row to select when the one at was in old left the
// board: the next in the list's order as it was, else the one before.
func (m *boardModel) successor(old []boardRow, was int) string {
	on := func(i int) bool {
		return slices.ContainsFunc(m.rows, func(r boardRow) bool { return r.t.ID == old[i].t.ID })
	}
	for i := was + 1; i < len(old); i++ {
		if on(i) {
			return old[i].t.ID
		}
	}
	for i := was - 1; i >= 0; i-- {
		if on(i) {
			return old[i].t.ID
		}
	}
	return ""
}

// waitingAfter are the tasks waiting on you after task id, in the list's order.
func (m *boardModel) waitingAfter(id string) []string {
	var out []string
	for i := max(m.selected(), 0); i < len(m.rows); i++ {
		if r := m.rows[i]; r.section == secWaiting && r.t.ID != id {
			out = append(out, r.t.ID)
		}
	}
	return out
}

// answered moves the cursor on from task id, just answered: to the next
// task waiting on you, in the list's order as it was, whose answer is not
// held; else it stays on id, wherever id went.
func (m *boardModel) answered(id string, next []string) {
	if !m.holds.Until(id).IsZero() {
		m.heldID = id
	}
	for _, n := range next {
		i := slices.IndexFunc(m.rows, func(r boardRow) bool { return r.t.ID == n })
		if i >= 0 && m.rows[i].section == secWaiting && m.holds.Until(n).IsZero() {
			m.sel = n
			return
		}
	}
	if slices.ContainsFunc(m.rows, func(r boardRow) bool { return r.t.ID == id }) {
		m.sel = id
	}
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

// staleChange says the change shown is not the one the task waits on now:
// the task was answered, or it asks again about another round.
func (m *boardModel) staleChange() bool {
	r, ok := m.rowOf(m.text.t.ID)
	return !ok || r.section != secWaiting || !r.t.UpdatedAt.Equal(m.text.t.UpdatedAt)
}

// rowOf is task id's row, if it is on the board.
func (m *boardModel) rowOf(id string) (boardRow, bool) {
	if i := slices.IndexFunc(m.rows, func(r boardRow) bool { return r.t.ID == id }); i >= 0 {
		return m.rows[i], true
	}
	return boardRow{}, false
}

// current is the selected row, if any.
func (m *boardModel) current() (boardRow, bool) {
	if i := m.selected(); i >= 0 {
		return m.rows[i], true
	}
	return boardRow{}, false
}

func (m *boardModel) say(text string, isErr bool) { m.note, m.noteErr = text, isErr }

// scheduled are the open tasks not to run before a time still ahead, the
// soonest first.
func scheduled(tasks []*task.Task, now time.Time) []*task.Task {
	var out []*task.Task
	for _, t := range tasks {
		if t.State == task.Open && t.Waits(now) {
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(a, b *task.Task) int { return a.NotBefore.Compare(*b.NotBefore) })
	return out
}
