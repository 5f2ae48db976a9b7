package task

import (
	"bytes"
	"encoding/json"
	"time"
)

// MarshalJSON names an event's session "sessionId", as every bh JSON object
// names a session (a file's YAML keeps "session"), and a check's time
// "tookSeconds", as bh's JSON names durations.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	v := struct {
		plain
		TookSeconds float64 `json:"tookSeconds,omitempty"`
	}{plain(e), e.Took.Seconds()}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as bh's output is written: cmd/jsonout.go
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads what MarshalJSON writes (the worker's journal holds
// events): "tookSeconds" back into Took.
func (e *Event) UnmarshalJSON(b []byte) error {
	type plain Event
	v := struct {
		*plain
		TookSeconds float64 `json:"tookSeconds"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	e.Took = time.Duration(v.TookSeconds * float64(time.Second))
	return nil
}
