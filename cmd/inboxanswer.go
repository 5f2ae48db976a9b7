package cmd

import (
	"fmt"

	"github.com/bh-tracker/bh/task/store"
)

// inboxAnswer walks the inbox's tasks on the terminal, the task of the
// oldest question first, as bh respond --all does in one repository.
func inboxAnswer(opts *InboxOptions, items []store.InboxItem) error {
	ro := &RespondOptions{base: opts.base, Editor: opts.Editor, Picker: opts.Picker}
	var ws []waitingTask
	seen := map[string]bool{}
	for _, it := range items {
		key := it.Path + "\x00" + it.TaskID
		if seen[key] {
			continue
		}
		seen[key] = true
		s, err := store.Find(it.Path)
		if err != nil {
			return err
		}
		t, err := s.Get(it.TaskID)
		if err != nil {
			return err
		}
		ws = append(ws, waitingTask{s: s, t: t, repo: it.Repo})
	}
	if len(ws) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "nothing is waiting for you")
		return nil
	}
	return answerInTurn(ro, ws)
}
