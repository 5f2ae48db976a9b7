package task

import (
	"bytes"
	"encoding/json"
)

// MarshalJSON names an event's session "sessionId", as every bh JSON object
// names a session. "session", its name before, stays beside it for one
// release (cmd/JSON.md); a file's YAML keeps "session".
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	v := struct {
		plain
		OldSession string `json:"session,omitempty"`
	}{plain(e), e.Session}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as bh's output is written: cmd/jsonout.go
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
