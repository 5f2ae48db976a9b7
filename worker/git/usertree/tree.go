// Package usertree is the only code that writes the user's checkout and
// index: landing on their checked-out branch, integrating a pull, committing
// bh's store, holding git's index.lock meanwhile, and Recover, which
// finishes or undoes whichever of these a killed bh left half-done. The
// rest of worker/git is plumbing that never takes the user's index.lock.
package usertree

import "github.com/bh-tracker/bh/worker/git"

// Tree is the user's repository, as this package writes it.
type Tree struct{ *git.Repo }

// Of is r's tree.
func Of(r *git.Repo) *Tree { return &Tree{r} }

// Recover finishes, or undoes, what a killed bh left half-done in the
// user's tree: a sync between moving the tree and its branch, a landing or
// store commit that held the index. Callers hold the landing lock; every
// operation here that moves the tree calls it first.
func (r *Tree) Recover() error {
	if _, err := r.finishIntegrate(); err != nil {
		return err
	}
	return r.finishLanding()
}
