package git

import (
	"bytes"
	"fmt"
	"strings"
)

// SetIndexEntries replaces p's index entries with entries, in the index
// env names (GIT_INDEX_FILE): the mode-0 line drops every stage first, as
// update-index wants for higher stages.
func (r *Repo) SetIndexEntries(dir string, env []string, p string, entries []string) error {
	var in bytes.Buffer
	fmt.Fprintf(&in, "0 %s\t%s\x00", strings.Repeat("0", 40), p)
	for _, e := range entries {
		in.WriteString(e + "\x00")
	}
	_, err := r.Run(dir, env, in.Bytes(), "update-index", "-z", "--index-info")
	return err
}
