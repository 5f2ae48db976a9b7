package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/agent/proc"
)

// A file the policy binds read-only inside a writable folder can be
// neither written, removed nor renamed over; a missing one reads empty,
// and stays so; the folder's other files stay writable.
func TestReadOnlyFilesInAWritableFolder(t *testing.T) {
	st := Detect()
	if st.Bwrap == "" {
		t.Skip(st.Why)
	}
	dir := t.TempDir()
	gitFile, missing := filepath.Join(dir, ".git"), filepath.Join(dir, "config.worktree")
	if err := os.WriteFile(gitFile, []byte("gitdir: /bh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := Bwrap{Path: st.Bwrap, Policy: Policy{Writable: []string{dir}, ReadOnly: []string{gitFile, missing}, Env: DefaultEnv}}
	script := `echo evil >.git; rm -f .git; echo x >t; mv t .git; echo evil >config.worktree; mv .git moved;
echo ok >other; cat config.worktree >seen`
	_, err := proc.Run(context.Background(), proc.Cmd{Argv: []string{"sh", "-c", script}, Dir: dir, Launcher: b})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(gitFile); string(data) != "gitdir: /bh\n" {
		t.Errorf(".git is %q", data)
	}
	if data, _ := os.ReadFile(missing); len(data) != 0 {
		t.Errorf("config.worktree holds %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "other")); string(data) != "ok\n" {
		t.Errorf("the folder's other files are not writable: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(dir, "moved")); err == nil {
		t.Errorf(".git was moved")
	}
}
