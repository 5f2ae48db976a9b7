package github

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/bh-tracker/bh/task/store"
	"github.com/gofrs/flock"
)

// state is what this clone remembers of the repository between polls,
// in bh's local state (store.Local): never in .bh/, since the ETags and
// the comments seen are one machine's.
type state struct {
	Repo  string            `json:"repo"`
	Cache map[string]Cached `json:"cache,omitempty"`
	// IssuesSince and CommentsSince are the newest updatedAt seen: the
	// next poll asks from there (the same URL while nothing changed).
	IssuesSince   string `json:"issuesSince,omitempty"`
	CommentsSince string `json:"commentsSince,omitempty"`
	Self          string `json:"self,omitempty"` // the token's own login
	// Posted is each task's question comments, by question ID.
	Posted map[string]map[string]Post `json:"posted,omitempty"`
	// Seen are the comments read already (an edit never answers again);
	// Noted what was said on an issue already, by key.
	Seen  map[int64]bool  `json:"seen,omitempty"`
	Noted map[string]bool `json:"noted,omitempty"`
	// Paused is the rate limit's reset: no request before it.
	Paused time.Time `json:"paused,omitzero"`
}

// Post is one question's comment on its issue.
type Post struct {
	Comment int64     `json:"comment"`
	At      time.Time `json:"at"`
}

func statePath(s *store.Store) string { return s.Local("github", "state.json") }

// lockState takes the lock of the state file: one sync at a time, the
// worker's or a command's.
func lockState(s *store.Store) (*flock.Flock, error) {
	if err := os.MkdirAll(filepath.Dir(statePath(s)), 0o700); err != nil {
		return nil, err
	}
	l := flock.New(s.Local("github", "lock"))
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("github: %w", err)
	}
	return l, nil
}

// loadState reads the state of repo; another repository's (the config
// changed) starts afresh.
func loadState(s *store.Store, repo string) (*state, error) {
	st := &state{}
	b, err := os.ReadFile(statePath(s))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err == nil {
		if err := json.Unmarshal(b, st); err != nil || st.Repo != repo {
			st = &state{} // unreadable or another repository's: polled afresh
		}
	}
	st.Repo = repo
	st.init()
	return st, nil
}

func (st *state) init() {
	if st.Cache == nil {
		st.Cache = map[string]Cached{}
	}
	if st.Posted == nil {
		st.Posted = map[string]map[string]Post{}
	}
	if st.Seen == nil {
		st.Seen = map[int64]bool{}
	}
	if st.Noted == nil {
		st.Noted = map[string]bool{}
	}
}

func (st *state) save(s *store.Store) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp := statePath(s) + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, statePath(s))
}
