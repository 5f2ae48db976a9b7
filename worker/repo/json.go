package repo

import (
	"encoding/json"
	"fmt"
	"sort"
	"unicode/utf8"
)

// baselineVersion changes when the JSON layout does; an old worker must not
// misread a newer file.
const baselineVersion = 1

type jsonBaseline struct {
	Version int         `json:"version"`
	Head    string      `json:"head"`
	Entries []jsonEntry `json:"entries"`
}

// jsonEntry carries its path as text, or as base64 bytes when the name is
// not valid UTF-8: JSON strings would silently replace such bytes.
type jsonEntry struct {
	Path      string `json:"path,omitempty"`
	PathBytes []byte `json:"path_bytes,omitempty"`
	Entry
}

// MarshalJSON writes the entries as a list sorted by path, so the file is
// stable and diffable.
func (b Baseline) MarshalJSON() ([]byte, error) {
	jb := jsonBaseline{Version: baselineVersion, Head: b.Head, Entries: []jsonEntry{}}
	for p, e := range b.Entries {
		je := jsonEntry{Entry: e}
		if utf8.ValidString(p) {
			je.Path = p
		} else {
			je.PathBytes = []byte(p)
		}
		jb.Entries = append(jb.Entries, je)
	}
	sort.Slice(jb.Entries, func(i, j int) bool {
		return string(jb.Entries[i].PathBytes)+jb.Entries[i].Path < string(jb.Entries[j].PathBytes)+jb.Entries[j].Path
	})
	return json.Marshal(jb)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (b *Baseline) UnmarshalJSON(data []byte) error {
	var jb jsonBaseline
	if err := json.Unmarshal(data, &jb); err != nil {
		return err
	}
	if jb.Version != baselineVersion {
		return fmt.Errorf("baseline: unsupported version %d", jb.Version)
	}
	b.Head = jb.Head
	b.Entries = make(map[string]Entry, len(jb.Entries))
	for _, je := range jb.Entries {
		p := je.Path
		if je.PathBytes != nil {
			p = string(je.PathBytes)
		}
		if p == "" {
			return fmt.Errorf("baseline: entry without a path")
		}
		b.Entries[p] = je.Entry
	}
	return nil
}
