package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/task/store"
)

// runEditor opens path in the editor and waits for it to exit. The editor
// may carry arguments ("code --wait"), so it runs through the shell, as git
// runs it. It gets the terminal, never a pipe meant for --json data, so it
// stays in bh's process group (Ctrl-C reaches both) and is hung up if bh dies.
func runEditor(io *IOStreams, editor, path string) error {
	c := proc.Cmd{Argv: []string{"sh", "-c", editor + ` "$@"`, editor, path}, Stdin: io.In,
		Stdout: io.Terminal(), Stderr: io.Terminal(), Terminal: true}
	if io.IsTTY {
		c.Stdout = io.Out
	}
	res, err := proc.Run(context.Background(), c)
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", res.ExitCode)
	}
	if err != nil {
		return fmt.Errorf("editor %q: %w", editor, err)
	}
	return nil
}

// scratchFile writes data to a new file under .bh/tmp/ for the user to edit.
// It is only removed once what the user wrote has been saved, so a refused
// edit is never lost. rel is its path from the repository's top.
func scratchFile(s *store.Store, pattern string, data []byte) (path, rel string, err error) {
	dir := filepath.Join(s.Dir, "tmp")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", "", err
	}
	f.Close()
	if err := os.WriteFile(f.Name(), data, 0o600); err != nil {
		os.Remove(f.Name())
		return "", "", err
	}
	rel, err = filepath.Rel(s.Root, f.Name())
	if err != nil {
		rel = f.Name()
	}
	return f.Name(), filepath.ToSlash(rel), nil
}

// editScratch writes data to a scratch file, opens it in the editor and
// returns what the user saved. If the editor fails the file is removed:
// quitting the editor with an error (vim's :cq) means "never mind".
func editScratch(io *IOStreams, editor string, s *store.Store, pattern string, data []byte) (path, rel string, out []byte, err error) {
	path, rel, err = scratchFile(s, pattern, data)
	if err != nil {
		return "", "", nil, err
	}
	if err := runEditor(io, editor, path); err != nil {
		os.Remove(path)
		return "", "", nil, err
	}
	out, err = os.ReadFile(path)
	if err != nil {
		return "", "", nil, err
	}
	return path, rel, out, nil
}
