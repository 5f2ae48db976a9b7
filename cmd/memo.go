package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// memoView runs view, a command's output made from every task, through the
// store's memo (see store.ListMemo): in a pipe, while no task file changed,
// the output kept last time is printed again. view lists through the func
// it is given, in place of listing.
func (b base) memoView(s *store.Store, name string, view func(list func() ([]*task.Task, error)) error) error {
	key, ok := b.memoKey()
	if !ok {
		return view(func() ([]*task.Task, error) { return b.listing(s) })
	}
	memo, tasks, bad, st, listErr := s.ListMemo(name, key, !b.JSON)
	if memo != nil {
		_, err := b.IO.Out.Write(memo)
		return err
	}
	list := func() ([]*task.Task, error) {
		warnFiles(b.IO, b.JSON, bad)
		return tasks, listErr
	}
	if !st.Valid() { // nothing could be kept: spared a copy of the output
		return view(list)
	}
	out, errOut := b.IO.Out, b.IO.ErrOut
	kept, warned := &keeper{w: out}, &keeper{w: errOut}
	b.IO.Out, b.IO.ErrOut = kept, warned
	err := view(list)
	b.IO.Out, b.IO.ErrOut = out, errOut
	if err == nil && len(warned.b) == 0 && !warned.failed && !kept.failed {
		// What is ready changes when a scheduled task's time comes.
		st = st.Until(task.Soonest(tasks, b.Now()))
		_ = s.SaveMemo(name, key, st, kept.b) // one not kept costs the next run time only
	}
	return err
}

// keeper passes what is written to w on, and keeps what w took. A write w
// failed (a closed pipe) makes what it kept no memo.
type keeper struct {
	w      io.Writer
	b      []byte
	failed bool
}

func (k *keeper) Write(b []byte) (int, error) {
	n, err := k.w.Write(b)
	if err != nil {
		k.failed = true
		return n, err
	}
	k.b = append(k.b, b...)
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
	return fmt.Sprintf("%s\x00%d\x00%d\x00%t\x00%t\x00%d\x00%s", exe, fi.Size(), fi.ModTime().UnixNano(),
		b.JSON, b.IO.ColorEnabled(), b.IO.Cols, strings.Join(b.Args, "\x00")), true
}
