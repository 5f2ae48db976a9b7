package worker

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/agent/proc"
)

// setupTimeout bounds worktree.setup: an install step, not a task.
const setupTimeout = 15 * time.Minute

// setupOutput caps what is kept of worktree.setup's output: only its end
// is ever shown.
const setupOutput = 64 << 10

// setup copies worktree.copy's files (ignored ones a build needs, such as
// .env, which a fresh worktree lacks) from the main tree and runs
// worktree.setup in the worktree, once per worktree, as inTree runs it.
// The worker's stop (its first Ctrl-C) ends the setup command's whole
// process group: no agent starts after it.
func (w *worker) setup(r *run) error {
	cfg := w.s.Config.Worktree
	if len(cfg.Copy) == 0 && cfg.Setup == "" {
		return nil
	}
	if fi, err := os.Lstat(setupMark(w.s, r.t.ID)); err == nil && fi.Mode().IsRegular() {
		return nil
	}
	for _, pattern := range cfg.Copy {
		if err := copyGlob(w.s.Root, r.wt.Path, pattern); err != nil {
			return &setupError{err}
		}
	}
	if cfg.Setup != "" {
		out := proc.NewCapWriter(setupOutput, setupOutput/2)
		res, err := w.inTree(w.stopping(), r, proc.Cmd{Argv: []string{"sh", "-c", cfg.Setup},
			Stdout: out, Stderr: out, Timeout: setupTimeout, Started: w.started(r)})
		// Kept whole (up to the cap) in the task's runs directory for a look;
		// the error quotes its end.
		if err := jail.WriteRunFile(w.s, r.t.ID, "setup.log", out.Bytes()); err != nil {
			w.warnf("%s: %v", r.t.ID, err)
		}
		switch {
		case w.stopping().Err() != nil:
			return errors.New("worktree setup stopped with the worker") // the worker's trouble, not the task's
		case err != nil:
			return &setupError{fmt.Errorf("%q: %v: %s", cfg.Setup, err, tail(out.Bytes(), 500))}
		case res.ExitCode != 0:
			return &setupError{fmt.Errorf("%q: exit status %d: %s", cfg.Setup, res.ExitCode, tail(out.Bytes(), 500))}
		}
	}
	return jail.WriteRunFile(w.s, r.t.ID, "setup.done", nil)
}

// copyGlob copies the files of the main tree matching pattern (relative to
// its top) to the same places in the worktree. A file already there stays.
func copyGlob(root, dst, pattern string) error {
	matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
	if err != nil {
		return fmt.Errorf("copy %q: %w", pattern, err)
	}
	for _, src := range matches {
		err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() || !fi.Mode().IsRegular() {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			return copyFile(p, filepath.Join(dst, rel), fi.Mode().Perm())
		})
		if err != nil {
			return fmt.Errorf("copy %q: %w", pattern, err)
		}
	}
	return nil
}

func copyFile(src, dst string, perm os.FileMode) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

func tail(b []byte, n int) string {
	s := strings.TrimSpace(string(bytes.ToValidUTF8(b, nil)))
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return s
}

func setupMark(s *store.Store, id string) string { return store.RunDir(s, id, "setup.done") }
