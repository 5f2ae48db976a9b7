package git

import (
	"fmt"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TestObjectsWrittenByRunsAtOnce writes blobs, trees and commits from
// several goroutines into one repository's store, as a worker's runs
// write their snapshots (-race: go-git's store resets its object list on
// every write), and reads each back.
func TestObjectsWrittenByRunsAtOnce(t *testing.T) {
	r := newRepo(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			data := fmt.Sprintf("run %d\n", i)
			blob, err := r.writeBlob([]byte(data))
			if err != nil {
				t.Error(err)
				return
			}
			tree, err := r.writeObject(&object.Tree{Entries: []object.TreeEntry{{Name: "f", Mode: filemode.Regular, Hash: blob}}})
			if err != nil {
				t.Error(err)
				return
			}
			commit, err := r.writeCommit(tree, nil, data)
			if err != nil {
				t.Error(err)
				return
			}
			got, err := r.commitTree(commit.String())
			if err != nil || got.Hash != tree {
				t.Errorf("commit %s has tree %v (%v), want %s", commit, got, err, tree)
				return
			}
			if back, err := r.readBlob(blob); err != nil || string(back) != data {
				t.Errorf("blob %s reads %q (%v), want %q", blob, back, err, data)
			}
		})
	}
	wg.Wait()
}
