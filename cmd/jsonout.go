package cmd

import (
	"encoding/json"
	"io"
)

// writeJSON prints v as indented JSON with a final newline. Field names come
// from the json tags of task.Task and are part of bh's interface.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
