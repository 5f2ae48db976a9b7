package git

import (
	"fmt"
	"io"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// writeBlob stores data as a blob. go-git writes a loose object through a
// temporary file and a rename, which is safe next to a running git.
func (r *Repo) writeBlob(data []byte) (plumbing.Hash, error) {
	st := r.storage()
	// Most blobs bh stores (a user's dirty file, at every baseline) are
	// there already; a file written costs more than a lookup.
	if h := plumbing.ComputeHash(plumbing.BlobObject, data); st.HasEncodedObject(h) == nil {
		return h, nil
	}
	obj := st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return st.SetEncodedObject(obj)
}

func (r *Repo) readBlob(h plumbing.Hash) ([]byte, error) {
	blob, err := object.GetBlob(r.storage(), h)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	rd, err := blob.Reader()
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	return data, nil
}

// commitTree returns the tree of a commit, nil for "" (an unborn HEAD).
func (r *Repo) commitTree(commit string) (*object.Tree, error) {
	if commit == "" {
		return nil, nil
	}
	c, err := object.GetCommit(r.storage(), plumbing.NewHash(commit))
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", commit, err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", commit, err)
	}
	return t, nil
}

// headTree is the current HEAD's tree, nil on an unborn branch.
func (r *Repo) headTree() (*object.Tree, error) {
	head, err := r.Head()
	if err != nil {
		return nil, err
	}
	return r.commitTree(head)
}

// treeFile looks p up in t; ok is false when t is nil or p is not a file there.
func treeFile(t *object.Tree, p string) (e object.TreeEntry, ok bool) {
	if t == nil {
		return object.TreeEntry{}, false
	}
	found, err := t.FindEntry(p)
	if err != nil || !found.Mode.IsFile() {
		return object.TreeEntry{}, false
	}
	return *found, true
}

// writeCommit stores a commit of tree with parents (none, for a snapshot of
// an unborn branch), signed by bh: parking must work even where the user
// never configured an identity.
func (r *Repo) writeCommit(tree plumbing.Hash, parents []plumbing.Hash, message string) (plumbing.Hash, error) {
	sig := object.Signature{Name: "bh", Email: "bh@localhost", When: time.Now()}
	h, err := r.writeObject(&object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: tree, ParentHashes: parents})
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write commit: %w", err)
	}
	return h, nil
}

// writeObject stores a tree or a commit.
func (r *Repo) writeObject(o object.Object) (plumbing.Hash, error) {
	obj := r.storage().NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.storage().SetEncodedObject(obj)
}

// BlobEntry is p's entry in commit as update-index --index-info takes it
// ("<mode> <hash> 0\t<path>"); "" when commit has no p.
func (r *Repo) BlobEntry(commit, p string) (string, error) {
	tree, err := r.commitTree(commit)
	if err != nil {
		return "", err
	}
	e, ok := treeFile(tree, p)
	if !ok {
		return "", nil
	}
	return fmt.Sprintf("%06o %s 0\t%s", uint32(e.Mode), e.Hash, p), nil
}
