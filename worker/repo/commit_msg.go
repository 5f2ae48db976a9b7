package repo

import (
	"errors"
	"fmt"
	"strings"
)

// cleanMessage is git's --cleanup=whitespace: trailing whitespace goes,
// runs of blank lines become one, leading and trailing blank lines go, and
// the message ends in a newline. Lines starting with '#' stay: a task title
// may start so.
func cleanMessage(msg string) string {
	var b strings.Builder
	blank := false
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteByte('\n')
			blank = false
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// explain turns a failed commit into ErrNothingToCommit or ErrNoIdentity
// where it is one of those.
func (r *Repo) explain(err error) error {
	var ge *gitError
	// Told apart by exit status rather than by git's (translated) words:
	// "nothing to commit" is exit 1 with the status on stdout and nothing on
	// stderr, where a failing hook writes.
	switch {
	case errors.As(err, &ge) && ge.Code == 1 && ge.Stderr == "" && ge.Stdout != "":
		return ErrNothingToCommit
	case errors.As(err, &ge) && ge.Code == 128 && !r.hasIdentity():
		return fmt.Errorf("%w\nhint: run git config user.name \"Your Name\" and git config user.email you@example.com", ErrNoIdentity)
	}
	return err
}

// hasIdentity reports whether git can name an author and a committer.
func (r *Repo) hasIdentity() bool {
	_, err := r.read(nil, "var", "GIT_AUTHOR_IDENT")
	if err == nil {
		_, err = r.read(nil, "var", "GIT_COMMITTER_IDENT")
	}
	return err == nil
}
