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
	out, errOut := b.IO.Out, b.IO.ErrOut
	kept, warned := &keeper{w: out}, &keeper{w: errOut}
	b.IO.Out, b.IO.ErrOut = kept, warned
	err := view(list)
	b.IO.Out, b.IO.ErrOut = out, errOut
	if err == nil && len(warned.pieces) == 0 && !warned.failed && !kept.failed {
		_ = s.SaveMemo(name, key, st, kept.pieces) // one not kept costs the next run time only
	}
	return err
}

// keeper passes what is written to w on, and keeps what w took, in pieces
// of 256 KB or more: no copy as it grows (megabytes at 100k tasks). A
// write w failed (a closed pipe) makes what it kept no memo.
type keeper struct {
	w      io.Writer
	pieces [][]byte
	failed bool
}

func (k *keeper) Write(b []byte) (int, error) {
	n, err := k.w.Write(b)
	if err != nil {
		k.failed = true
		return n, err
	}
	if last := len(k.pieces) - 1; last < 0 || len(k.pieces[last])+len(b) > cap(k.pieces[last]) {
		k.pieces = append(k.pieces, make([]byte, 0, max(256<<10, len(b))))
	}
	last := &k.pieces[len(k.pieces)-1]
	*last = append(*last, b...)
	return n, nil
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
