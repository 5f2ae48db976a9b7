package git

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// BranchTip is the commit refs/heads/<name> points to, "" when the branch
// does not exist.
func (r *Repo) BranchTip(name string) (string, error) {
	tip, err := r.refTip("refs/heads/" + name)
	if err != nil {
		return "", fmt.Errorf("branch %s: %w", name, err)
	}
	return tip, nil
}

// CurrentBranch is the branch checked out in r's tree, "" on a detached HEAD.
func (r *Repo) CurrentBranch() (string, error) {
	data, err := os.ReadFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: ")
	if !ok {
		return "", nil
	}
	if target == "refs/heads/.invalid" { // reftable: HEAD is kept in the table
		out, err := r.Read(nil, "symbolic-ref", "-q", "HEAD")
		if err != nil {
			return "", nil // detached: symbolic-ref -q fails silently
		}
		target = strings.TrimSpace(string(out))
	}
	name, ok := strings.CutPrefix(target, "refs/heads/")
	if !ok {
		return "", nil
	}
	return name, nil
}

// refTip reads ref in-process, and asks git when the refs are in a form
// go-git cannot read. "" when the ref does not exist.
func (r *Repo) refTip(ref string) (string, error) {
	got, err := storer.ResolveReference(r.refStorage(), plumbing.ReferenceName(ref))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", nil
	}
	if err == nil {
		return got.Hash().String(), nil
	}
	return r.verify(ref)
}

// bhRef refuses a ref outside refs/bh/: bh never moves the user's refs
// through these helpers.
func bhRef(ref string) error {
	if !strings.HasPrefix(ref, "refs/bh/") {
		return fmt.Errorf("ref %s: bh only keeps refs under refs/bh/", ref)
	}
	return nil
}

// Ref is the commit bh's ref points to, "" when it does not exist.
func (r *Repo) Ref(ref string) (string, error) {
	if err := bhRef(ref); err != nil {
		return "", err
	}
	tip, err := r.refTip(ref)
	if err != nil {
		return "", fmt.Errorf("ref %s: %w", ref, err)
	}
	return tip, nil
}

// SetRef points bh's ref at commit whatever it held: create-or-verify, so
// that a rerun after a crash never fails on the ref it made. git writes it
// (locks, reflog); go-git only reads.
func (r *Repo) SetRef(ref, commit, reason string) error {
	cur, err := r.Ref(ref)
	if err != nil || cur == commit {
		return err
	}
	if _, err := r.Write(nil, "update-ref", "-m", reason, ref, commit); err != nil {
		return fmt.Errorf("set %s: %w", ref, err)
	}
	return nil
}

// DeleteRef removes bh's ref; one that is missing is fine. git deletes it,
// since that may rewrite packed-refs, which holds the user's refs too.
func (r *Repo) DeleteRef(ref string) error {
	cur, err := r.Ref(ref)
	if err != nil || cur == "" {
		return err
	}
	if _, err := r.Write(nil, "update-ref", "-d", ref); err != nil {
		return fmt.Errorf("delete %s: %w", ref, err)
	}
	return nil
}

// Diff is `git diff --no-color --no-ext-diff [--stat] from to`, for bh diff.
func (r *Repo) Diff(from, to string, stat bool) (string, error) {
	args := []string{"-c", "core.quotepath=false", "diff", "--no-color", "--no-ext-diff"} // paths as they are, in UTF-8
	if stat {
		args = append(args, "--stat")
	}
	out, err := r.Read(nil, append(args, from, to, "--")...)
	if err != nil {
		return "", fmt.Errorf("diff %s %s: %w", Short(from), Short(to), err)
	}
	return string(out), nil
}

// FileStat is one file's lines added and removed between two commits.
type FileStat struct {
	Path    string `json:"path"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Binary  bool   `json:"binary,omitempty"`
}

// NumStat is what changed from one commit to another, file by file (a
// rename as a removal and an addition, so that each names one path).
// Both must be hashes: they may come from a task's file.
func (r *Repo) NumStat(from, to string) ([]FileStat, error) {
	if !plumbing.IsHash(from) || !plumbing.IsHash(to) {
		return nil, fmt.Errorf("numstat %q %q: not commits", from, to)
	}
	out, err := r.Read(nil, "diff", "--numstat", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", from, to, "--")
	if err != nil {
		return nil, fmt.Errorf("diff %s %s: %w", Short(from), Short(to), err)
	}
	var files []FileStat
	for _, rec := range SplitNul(out) {
		added, rest, _ := strings.Cut(rec, "\t")
		removed, path, ok := strings.Cut(rest, "\t")
		if !ok {
			return nil, fmt.Errorf("diff %s %s: unexpected line %q", Short(from), Short(to), rec)
		}
		f := FileStat{Path: path, Binary: added == "-"}
		f.Added, _ = strconv.Atoi(added)
		f.Removed, _ = strconv.Atoi(removed)
		files = append(files, f)
	}
	return files, nil
}

// Short abbreviates a hash for messages.
func Short(h string) string {
	if len(h) > 10 && plumbing.IsHash(h) {
		return h[:10]
	}
	return h
}

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

// FindParked looks up the parked work of task id in the repository at root:
// this clone's, else the copy bh sync fetched of another clone's (to show,
// never to resume from: that is the claim's, worker/claims).
func FindParked(root, id string) (Parked, error) {
	r, err := Open(root)
	if err != nil {
		return Parked{}, err
	}
	p := Parked{Repo: r, Ref: ParkRef(id)}
	if p.Commit, err = r.Ref(p.Ref); err == nil && p.Commit == "" {
		p.Ref = RemoteCopy(p.Ref) // parked by another clone, fetched by bh sync
		p.Commit, err = r.Ref(p.Ref)
	}
	if err != nil || p.Commit == "" {
		return p, err
	}
	p.Base, err = r.Parent(p.Commit)
	return p, err
}

// Diff is the parked work's patch, or its summary (files and lines) with stat.
func (p Parked) Diff(stat bool) (string, error) {
	return p.Repo.Diff(p.Base, p.Commit, stat)
}

// ParkedCommit is the commit of id's parked work, "" when there is none,
// read in-process in a plain repository (see openPlain): show and status
// ask it on every glance at a task.
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
