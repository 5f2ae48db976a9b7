package task

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

// ValidPrefix reports whether p can prefix task IDs: a lower-case letter,
// then up to 15 lower-case letters and digits.
func ValidPrefix(p string) bool {
	return len(p) > 0 && len(p) <= 16 && p[0] >= 'a' && p[0] <= 'z' && allAlnum(p[1:])
}

// allAlnum reports whether s holds only lower-case letters and digits.
func allAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// isRef reports whether r is what a user may type for an ID: the full ID,
// the part after the prefix, or a prefix of either. Nothing else reaches
// the file system.
func isRef(r string) bool {
	head, tail, dash := strings.Cut(r, "-")
	// "tm-" names no task: a dash needs something after it, or "tm-"
	// would be a prefix of every id.
	return head != "" && allAlnum(head) && allAlnum(tail) && (!dash || tail != "") // a second dash fails allAlnum
}

// idLength grows with the store so that two branches creating tasks at once
// stay unlikely to collide: about 1000 free IDs for every existing one.
func idLength(count int) int {
	n, space := 4, 36*36*36*36
	for space < (count+1)*1000 {
		n++
		space *= 36
	}
	return n
}

// NewID returns a random ID, sized for count existing ones, that taken
// refuses. Each ID taken adds a character: at the planned length one in a
// thousand is, so a collision says count was behind the store.
func NewID(prefix string, count int, taken func(id string) bool) (string, error) {
	n := idLength(count)
	for try := range 100 {
		if try > 0 {
			n = min(n+1, 16)
		}
		var b strings.Builder
		b.WriteString(prefix)
		b.WriteByte('-')
		for range n { // ids are not secrets: the runtime's seeded generator, no system call per character
			b.WriteByte(base36[rand.IntN(36)])
		}
		if id := b.String(); !taken(id) {
			return id, nil
		}
	}
	return "", fmt.Errorf("new id: no free id after 100 tries")
}

// NewQuestionID is a short correlation id, unique within t, that ties a
// question to its answer in the history and on the command line.
func (t *Task) NewQuestionID() string {
	for {
		id := []byte("q")
		for range 4 {
			id = append(id, base36[rand.IntN(36)])
		}
		if t.QuestionByID(string(id)) == nil {
			return string(id)
		}
	}
}

// BadIDError is input that is not shaped like a task ID.
type BadIDError struct{ Ref string }

func (e *BadIDError) Error() string {
	return fmt.Sprintf("%q is not a task id (ids look like tm-a1b2)", e.Ref)
}

// NotFoundError is a well-formed reference that matches no task.
type NotFoundError struct{ Ref string }

func (e *NotFoundError) Error() string { return fmt.Sprintf("no task matches %q", e.Ref) }

// AmbiguousError is a reference that matches several tasks.
type AmbiguousError struct {
	Ref        string
	Candidates []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q matches %d tasks: %s", e.Ref, len(e.Candidates), strings.Join(e.Candidates, ", "))
}

// CheckRef normalizes a user's ID reference or refuses it.
func CheckRef(ref string) (string, error) {
	r := strings.ToLower(strings.TrimSpace(ref))
	if !isRef(r) {
		return "", &BadIDError{Ref: ref}
	}
	return r, nil
}

// ValidID reports whether id is safe as a file name in .bh/tasks: the
// shape of an ID (lower-case letters, digits, one dash), no dots or slashes.
func ValidID(id string) bool {
	dash := false
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c == '-' && !dash && i > 0:
			dash = true
		default:
			return false
		}
	}
	return id != ""
}

// ResolveID finds the one ID among ids that ref names: exactly, or as a
// prefix of the full ID or of the part after the task prefix.
func ResolveID(ref string, ids []string) (string, error) {
	r, err := CheckRef(ref)
	if err != nil {
		return "", err
	}
	var found []string
	for _, id := range ids {
		if id == r {
			return id, nil
		}
		_, suffix, _ := strings.Cut(id, "-")
		if strings.HasPrefix(id, r) || strings.HasPrefix(suffix, r) {
			found = append(found, id)
		}
	}
	switch len(found) {
	case 0:
		return "", &NotFoundError{Ref: ref}
	case 1:
		return found[0], nil
	}
	sort.Strings(found)
	return "", &AmbiguousError{Ref: ref, Candidates: found}
}
