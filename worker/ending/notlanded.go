package ending

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// ErrNothingToLand means a task has no finished work waiting to land.
var ErrNothingToLand = errors.New("nothing to land")

// NotLandedError is a bh land that landed nothing, and why: git would not
// land over the user's changes (Files are theirs in the way), or the task
// has nothing waiting to land. The task is left as it was.
type NotLandedError struct {
	ID     string
	State  task.State
	Reason string
	Files  []string
	Err    error
}

func (e *NotLandedError) Error() string {
	msg := fmt.Sprintf("%s was not landed: %s", e.ID, e.Reason)
	if len(e.Files) > 0 {
		msg += ": " + strings.Join(e.Files, ", ")
	}
	return msg
}

func (e *NotLandedError) Unwrap() error { return e.Err }
