package git

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Generated says whether the file is one a tool wrote, which a reviewer
// reads folded: a lock file, or one whose first lines carry a generator's
// mark (Go's "Code generated … DO NOT EDIT.", "@generated").
func (f FileDiff) Generated() bool {
	if slices.Contains(lockFiles, path.Base(f.Name)) {
		return true
	}
	seen := 0
	for _, l := range f.Lines {
		if l.Line == 0 {
			continue
		}
		if text := l.Text[min(1, len(l.Text)):]; generatedMark().MatchString(text) || strings.Contains(text, "@generated") {
			return true
		}
		if seen++; seen == 10 { // a mark comes at the top of the file
			return false
		}
	}
	return false
}

// Folded says whether the file starts folded where a change is shown:
// too long to read whole, or generated.
func (f FileDiff) Folded() bool { return !f.Short() || f.Generated() }

var generatedMark = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`) })

// lockFiles are the names of the files package managers write whole.
var lockFiles = []string{"go.sum", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "poetry.lock",
	"Gemfile.lock", "composer.lock", "uv.lock"}
