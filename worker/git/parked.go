package git

import (
	"os"
	"path/filepath"
	"strings"
)

// ParkRef is where a task's parked work is kept while it waits on an answer.
func ParkRef(id string) string { return "refs/bh/parked/" + id }

// RemoteRefs is where bh keeps its copies of other machines' refs: never
// fetched over its own, so a ref not pushed yet is never lost.
const RemoteRefs = "refs/bh/remote/"

// RemoteCopy is where bh keeps its copy of another machine's ref
// (refs/bh/parked/x → refs/bh/remote/parked/x).
func RemoteCopy(ref string) string { return RemoteRefs + strings.TrimPrefix(ref, "refs/bh/") }

// Parked is a task's parked work: the snapshot under ParkRef and the
// commit it builds on, so that its diff is everything the agent changed.
type Parked struct {
	Repo   *Repo
	Ref    string
	Commit string // "" when nothing is parked
	Base   string
}

// FindParked looks up the parked work of task id in the repository at root.
func FindParked(root, id string) (Parked, error) {
	r, err := Open(root)
	if err != nil {
		return Parked{}, err
	}
	p := Parked{Repo: r, Ref: ParkRef(id)}
	if p.Commit, err = r.Ref(p.Ref); err != nil || p.Commit == "" {
		return p, err
	}
	p.Base, err = r.Parent(p.Commit)
	return p, err
}

// Diff is the parked work's patch, or its summary (files and lines) with stat.
func (p Parked) Diff(stat bool) (string, error) {
	return p.Repo.Diff(p.Base, p.Commit, stat)
}

// ParkedCommit is the commit of id's parked work, "" when there is none.
// show and status run on every glance at a task, so in a repository with
// the plain layout it reads the ref in-process, without the git process
// Open starts.
func ParkedCommit(root, id string) (string, error) {
	r, err := openPlain(root)
	if err != nil {
		return "", err
	}
	return r.Ref(ParkRef(id))
}

// openPlain is Open without its git process when root holds a .git
// directory (not a linked worktree's .git file): then the working tree is
// root and both git dirs are root/.git.
func openPlain(root string) (*Repo, error) {
	gitDir := filepath.Join(root, ".git")
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return Open(root)
	}
	abs, err := filepath.Abs(gitDir)
	if err != nil {
		return Open(root)
	}
	return &Repo{Root: filepath.Dir(abs), gitDir: abs, commonDir: abs}, nil
}
