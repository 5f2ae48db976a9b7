package act

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// CheckComments refuses answers with a comment on a line that is not in
// task id's change as its diff shows it (bh diff, the web, the board): a
// file the agent did not change, or a line the diff does not show. Answer
// checks every channel's answers with it; a channel that holds an answer
// back checks it first too, so that the human hears of it at once.
func CheckComments(s *store.Store, id string, ans []task.Answer) error {
	if !slices.ContainsFunc(ans, func(a task.Answer) bool { return len(a.Comments) > 0 }) {
		return nil
	}
	lines, err := changeLines(s.Root, id)
	if err != nil {
		return err
	}
	for _, a := range ans {
		for _, c := range a.Comments {
			if why := offChange(lines, c, id); why != "" {
				return &task.AnswerError{ID: id, QuestionID: a.QuestionID,
					Reason: fmt.Sprintf("the comment on %s:%d: %s", strings.TrimSpace(c.Path), c.Line, why)}
			}
		}
	}
	return nil
}

// changeLines are the lines of task id's change a comment may go on, by
// file (git.Commentable): none when it has no change.
func changeLines(root, id string) (map[string][]int, error) {
	p, err := git.FindParked(root, id)
	if err != nil || p.Commit == "" {
		return nil, err
	}
	d, err := p.Diff(false)
	if err != nil {
		return nil, err
	}
	return git.Commentable(d), nil
}

// offChange says why comment c is not on a line of task id's change, whose
// lines are lines; "" when it is.
func offChange(lines map[string][]int, c task.LineComment, id string) string {
	path := strings.TrimSpace(c.Path)
	ls, ok := lines[path]
	switch {
	case len(lines) == 0:
		return id + " has no change to comment on"
	case !ok:
		files := slices.Sorted(maps.Keys(lines))
		if len(files) > 10 {
			files = append(files[:10], "…")
		}
		return fmt.Sprintf("%s is not a file of %s's change, whose files are %s", path, id, strings.Join(files, ", "))
	case !slices.Contains(ls, c.Line):
		return fmt.Sprintf("line %d is not in %s's change, which shows %s of %s", c.Line, id, spans(ls), path)
	}
	return ""
}

// spans are sorted line numbers as a reader says them: "line 4",
// "lines 1-3, 10-12".
func spans(ls []int) string {
	var out []string
	for i := 0; i < len(ls); {
		j := i
		for j+1 < len(ls) && ls[j+1] == ls[j]+1 {
			j++
		}
		s := strconv.Itoa(ls[i])
		if j > i {
			s += "-" + strconv.Itoa(ls[j])
		}
		out, i = append(out, s), j+1
	}
	if len(ls) == 1 {
		return "line " + out[0]
	}
	return "lines " + strings.Join(out, ", ")
}
