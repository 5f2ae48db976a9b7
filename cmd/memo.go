package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// In a pipe, bh list, ready and tree keep their output in the store with
// the state of every task file it was made from (store.ListMemo): while no
// file changed, the same command prints it again without reading a task.
// Agents poll these commands; a memo costs them a stat of every file.

// lister reads every task for a view (see base.listing).
type lister func() ([]*task.Task, []error, error)

func (b base) lister(s *store.Store) lister {
	return func() ([]*task.Task, []error, error) { return b.listing(s) }
}

// memoView runs view, a listing command's output, through its memo: the
// memo printed when it holds; else view run, and its output kept when it
// warned of nothing and every file it read had settled.
func (b base) memoView(s *store.Store, name string, view func(lister) error) error {
	key, ok := b.memoKey()
	if !ok {
		return view(b.lister(s))
	}
	memo, tasks, bad, st, listErr := s.ListMemo(name, key, !b.JSON)
	if memo != nil {
		_, err := b.IO.Out.Write(memo)
		return err
	}
	list := func() ([]*task.Task, []error, error) { return tasks, bad, listErr }
	if !st.Valid() { // nothing could be kept: spared a copy of the output
		return view(list)
	}
	var kept pieces
	out, errOut := b.IO.Out, b.IO.ErrOut
	warned := &wroteWriter{w: errOut}
	b.IO.Out, b.IO.ErrOut = io.MultiWriter(out, &kept), warned
	err := view(list)
	b.IO.Out, b.IO.ErrOut = out, errOut
	if err == nil && !warned.wrote {
		_ = s.SaveMemo(name, key, st, kept) // one not kept costs the next run time only
	}
	return err
}

// pieces keeps what is written to it, in pieces of 256 KB or more: no
// copy as it grows (megabytes at 100k tasks).
type pieces [][]byte

func (p *pieces) Write(b []byte) (int, error) {
	if n := len(*p); n == 0 || len((*p)[n-1])+len(b) > cap((*p)[n-1]) {
		*p = append(*p, make([]byte, 0, max(256<<10, len(b))))
	}
	last := &(*p)[len(*p)-1]
	*last = append(*last, b...)
	return len(b), nil
}

// memoKey is everything but the tasks that a view's output depends on:
// this bh, the command line, and the output's form. A terminal's output
// (its width, colours, relative times) is not kept.
func (b base) memoKey() (string, bool) {
	if b.IO.IsTTY || b.Args == nil {
		return "", false
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%t\x00%t\x00%d\x00%s", version(), exe, fi.Size(), fi.ModTime().UnixNano(),
		b.JSON, b.IO.ColorEnabled(), b.IO.Cols, strings.Join(b.Args, "\x00")), true
}

// wroteWriter notes whether anything was written through it.
type wroteWriter struct {
	w     io.Writer
	wrote bool
}

func (w *wroteWriter) Write(p []byte) (int, error) {
	w.wrote = w.wrote || len(p) > 0
	return w.w.Write(p)
}
