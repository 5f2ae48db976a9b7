package worker

import "github.com/bh-tracker/bh/worker/git"

// Parked is a task's parked work: the snapshot under ParkRef and the
// commit it builds on, so that its diff is everything the agent changed.
type Parked struct {
	Repo   *git.Repo
	Ref    string
	Commit string // "" when nothing is parked
	Base   string
}

// FindParked looks up the parked work of task id in the repository at root.
func FindParked(root, id string) (Parked, error) {
	r, err := git.Open(root)
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
