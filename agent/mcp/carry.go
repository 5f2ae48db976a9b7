package mcp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/bh-tracker/bh/agent/untrusted"
)

// OutboxFiles are the outbox's files: what a run elsewhere (a task pod,
// whose bh mcp writes an outbox of its own) carries back into the
// worker's outbox, for the worker to take as it takes a local run's.
var OutboxFiles = []string{askedFile, addedFile}

// ReadOutbox is what the outbox holds, file by file (OutboxFiles), for
// a run elsewhere to carry back; a file it cannot read as a regular one
// of at most MaxOutboxBytes is left out, and said.
func ReadOutbox(outbox string) (map[string][]byte, error) {
	out := map[string][]byte{}
	var errs []error
	for _, name := range OutboxFiles {
		b, err := untrusted.ReadFile(filepath.Join(outbox, name), MaxOutboxBytes)
		switch {
		case err == nil:
			out[name] = b
		case !errors.Is(err, os.ErrNotExist):
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("read the run's outbox: %v", errs)
	}
	return out, nil
}

// PutOutbox appends data, what a run elsewhere carried back of the
// outbox file name, to the outbox, for TakeAsked and TakeAdded to take
// as hostile input, as they take what a local run's bh mcp wrote.
func PutOutbox(outbox, name string, data []byte) error {
	if !slices.Contains(OutboxFiles, name) {
		return fmt.Errorf("%q is no file of the run's outbox", name)
	}
	return appendLines(outbox, name, [][]byte{data})
}
