package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/bh-tracker/bh/task"
)

// Inbox is what waits for a human across repositories: bh inbox lists it,
// bh serve shows it.
type Inbox struct {
	Items   []InboxItem   // every pending question, oldest first
	Running []RunningTask // tasks an agent (or a human) is working on now
	Asking  []RunningTask // tasks awaiting input: Items holds their questions
	// Attention holds failed and blocked tasks: a human must reopen or
	// answer them.
	Attention []RunningTask
	Skipped   []error // repositories that moved, vanished or could not be read
	// Review holds the tasks whose pull request is in review (land: pr).
	Review []RunningTask
}

// RunningTask is a task and the repository it is in.
type RunningTask struct {
	Path string
	Task *task.Task
}

// InboxItem is one pending question. Its field names are bh's interface
// (bh inbox --json).
type InboxItem struct {
	Repo       string        `json:"repo"`
	Path       string        `json:"repoPath"`
	TaskID     string        `json:"taskId"`
	Title      string        `json:"title"`
	QuestionID string        `json:"questionId"`
	Number     int           `json:"number"` // the question's number, as bh respond --question takes it
	Question   string        `json:"question"`
	Header     string        `json:"header,omitempty"`
	Type       string        `json:"type"`
	Options    []task.Option `json:"options,omitempty"`
	AskedAt    time.Time     `json:"askedAt"`
	Respond    string        `json:"respond"` // the command that answers it, from anywhere
}

// ReadInbox reads every task of the repositories at roots. A task in two
// clones of one repository (the same id) is listed once, as the clone
// that changed it last has it.
func ReadInbox(roots []string) Inbox {
	in := Inbox{Items: []InboxItem{}}
	var found []RunningTask
	newest := map[string]int{} // task id -> its index in found
	var repos []Repo
	repos, in.Skipped = ReadRepos(roots)
	for _, r := range repos {
		for _, t := range r.Tasks {
			i, seen := newest[t.ID]
			switch {
			case !seen:
				newest[t.ID] = len(found)
				found = append(found, RunningTask{r.Root, t})
			case t.UpdatedAt.After(found[i].Task.UpdatedAt):
				found[i] = RunningTask{r.Root, t}
			}
		}
	}
	for _, f := range found {
		root, t := f.Path, f.Task
		switch t.State {
		case task.InProgress:
			in.Running = append(in.Running, f)
		case task.AwaitingInput:
			in.Asking = append(in.Asking, f)
		case task.Failed, task.Blocked:
			in.Attention = append(in.Attention, f)
		case task.InReview:
			in.Review = append(in.Review, f)
		}
		for _, n := range t.Numbered() {
			q := n.Q
			in.Items = append(in.Items, InboxItem{Repo: filepath.Base(root), Path: root, TaskID: t.ID,
				Title: t.Title, QuestionID: q.ID, Number: n.N, Question: q.Question, Header: q.Header, Type: q.Kind(),
				Options: q.Options, AskedAt: q.AskedAt, Respond: task.RespondCommand(t, q, root)})
		}
	}
	slices.SortStableFunc(in.Items, func(a, b InboxItem) int { return a.AskedAt.Compare(b.AskedAt) })
	return in
}

// Repo is a repository's tasks, read whole.
type Repo struct {
	Root  string
	Tasks []*task.Task
}

// ReadRepos reads every task of the repositories at roots; one that moved,
// vanished or cannot be read is skipped, with its error.
func ReadRepos(roots []string) (repos []Repo, skipped []error) {
	for _, root := range roots {
		if _, err := os.Stat(root); errors.Is(err, os.ErrNotExist) {
			skipped = append(skipped, &MovedError{Root: root})
			continue
		}
		var tasks []*task.Task
		s, err := Find(root)
		if err == nil {
			tasks, _, err = s.List()
		}
		if err != nil {
			skipped = append(skipped, fmt.Errorf("%s: skipped: %v", root, err))
			continue
		}
		repos = append(repos, Repo{root, tasks})
	}
	return repos, skipped
}

// MovedError is a registered repository that is no longer where it was.
type MovedError struct{ Root string }

func (e *MovedError) Error() string { return e.Root + ": skipped: it moved or was removed" }
