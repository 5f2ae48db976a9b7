package storegit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// A task file is the only copy of a task until it is committed, and the
// user's own git removes such files as a matter of course: git clean
// -fdx, git stash -u, git reset --hard. So every file the store writes is
// also kept as a git object under git.KeepRef (no commit on any branch),
// each bh command notices when the tree lost one, and bh doctor --fix
// puts it back. What was removed on purpose is not resurrected: bh rm
// forgets the file, a removal or older version committed on a branch is
// git's own record, and a file edited by hand is newer than the copy.
//
// Noticing must cost bh add and bh list nothing they would feel: a stamp
// of .bh/ and .bh/tasks (mtime and inode, which every create, rename or
// removal in them changes) and of config.yaml (edited in place by hand) is
// saved whenever the tree held everything, and only a stamp that no
// longer matches leads to comparing the files.

// Keeper keeps the store's files (store.Keeper) and checks the tree
// against them.
type Keeper struct {
	s    *store.Store
	warn func(error) // keeping failed: the write itself stands

	once sync.Once
	k    *git.Keep
	err  error
}

// NewKeeper keeps s's files; warn hears of a copy that could not be kept.
// Install it with s.Keep = k.Write.
func NewKeeper(s *store.Store, warn func(error)) *Keeper {
	return &Keeper{s: s, warn: warn}
}

func (kp *Keeper) keep() (*git.Keep, error) {
	kp.once.Do(func() { kp.k, kp.err = git.OpenKeep(kp.s.Root) })
	return kp.k, kp.err
}

// Write is the store.Keeper: write, then keep data as rel (forget it when
// nil). The stamp moves on only if it matched before: a change someone
// else made stays noticed.
func (kp *Keeper) Write(rel string, data []byte, write func() error) error {
	k, err := kp.keep()
	if err != nil { // no git repository left around the store: nothing to keep with
		return write()
	}
	lost, known := kp.saved(k, kp.stamp())
	if err := write(); err != nil {
		return err
	}
	// A renewed lease is not kept: the copy kept is as good, and a
	// worker's beats would fill .git with objects.
	if !kp.heartbeat(k, rel, data) {
		if err := k.Note(rel, data); err != nil {
			kp.warn(fmt.Errorf("keep bh's copy of .bh/%s: %w", rel, err))
			return nil
		}
	}
	if known { // what was lost stays lost, but rel: bh just wrote it
		kp.restamp(k, slices.DeleteFunc(lost, func(l Lost) bool { return l.Rel == rel }))
	}
	return nil
}

// restamp saves the stamp after bh's own write, with lost, but keeps the
// time the tree was last found whole (verifiedAt): a change from outside
// during the write (git reset --hard beside a worker's heartbeat) goes
// into the new stamp unseen, and a folder's mtime, at the kernel's tick,
// cannot tell it from bh's own. The next comparison, at the next change
// from outside, then reads every file changed since that time, that one
// included, instead of taking it as whole for good; and a worker
// compares a tree it has only re-stamped every recompare (RestoreOlder).
func (kp *Keeper) restamp(k *git.Keep, lost []Lost) {
	whole := kp.verifiedAt(k)
	kp.save(k, kp.stamp(), lost)
	if !whole.IsZero() {
		os.Chtimes(k.StampPath(), whole, whole)
	}
}

// heartbeat reports whether data differs from the kept copy of rel only in
// bh's bookkeeping (a lease renewed: see bookkeeping).
func (kp *Keeper) heartbeat(k *git.Keep, rel string, data []byte) bool {
	id, ok := taskFileID(rel)
	// Without a lease it is no renewal, and the kept copy need not be
	// found: a new task's file (bh add) then costs no read of the pack's
	// index, a tenth of bh add at 10k tasks.
	if !ok || data == nil || !bytes.Contains(data, []byte("\nlease:")) {
		return false
	}
	blob, err := k.Lookup(rel)
	if err != nil || blob == "" {
		return false
	}
	kept, err := k.Read(blob)
	return err == nil && bookkeeping(rel, id, kept, data)
}

// Lost is a store file the tree no longer holds as bh last wrote it.
type Lost struct {
	Rel     string // relative to .bh: tasks/<id>.yaml, config.yaml
	Blob    string // bh's copy
	Missing bool   // gone; else an older version stands there
}

// TaskID is the id of the task whose file l is; false for config.yaml.
func (l Lost) TaskID() (string, bool) { return taskFileID(l.Rel) }

// LostError names what the tree lost, for a warning.
type LostError struct{ Lost []Lost }

func (e *LostError) Error() string {
	tasks, older, cfg := 0, 0, ""
	for _, l := range e.Lost {
		switch {
		case l.Rel == "config.yaml":
			cfg = "config.yaml gone"
		case l.Missing:
			tasks++
		default:
			older++
		}
	}
	var parts []string
	if tasks > 0 {
		parts = append(parts, plural(tasks, "task file")+" gone")
	}
	if older > 0 {
		parts = append(parts, plural(older, "task file")+" older than bh wrote")
	}
	if cfg != "" {
		parts = append(parts, cfg)
	}
	return fmt.Sprintf(".bh/ lost what bh wrote (git clean, git stash, git checkout or git reset?): %s; bh kept copies",
		strings.Join(parts, ", "))
}

func (e *LostError) Hint() string {
	return "run 'bh doctor --fix' to restore them (bh rm <id> forgets a task you removed on purpose)"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Check compares the tree with bh's copies; nil when nothing is lost.
// Quick when the stamp matches; otherwise it also takes in what came by
// the user's git (a pull, a hand edit, a new branch's tasks) as the newest
// copies, and saves the stamp with what was lost, so that a tree that
// lost files is compared once, not on every command, until it changes
// (bh doctor --fix, a restore, the user's git) or is repaired.
func (kp *Keeper) Check() (*LostError, error) { return kp.check(0) }

// check is Check; a whole tree last compared more than maxAge ago (0:
// whenever) is compared again, whatever its stamp (see restamp).
func (kp *Keeper) check(maxAge time.Duration) (*LostError, error) {
	k, err := kp.keep()
	if err != nil {
		return nil, nil
	}
	cur := kp.stamp()
	if lost, ok := kp.saved(k, cur); ok && (maxAge == 0 || len(lost) > 0 || time.Since(kp.verifiedAt(k)) < maxAge) {
		return lostError(lost), nil
	}
	lost, err := kp.Compare(true)
	if err != nil {
		return nil, err
	}
	kp.save(k, cur, lost)
	return lostError(lost), nil
}

func lostError(lost []Lost) *LostError {
	if len(lost) == 0 {
		return nil
	}
	return &LostError{Lost: lost}
}

// manyUnkept is how many files bh has no copy of before it asks git's
// index which of them git holds unchanged, rather than reading each (a
// clone's first command, 10k tasks); for a pull's few files, reading is
// cheaper than two git processes.
const manyUnkept = 256

// ErrNoKeep is a store with no git repository around it to keep in.
var ErrNoKeep = errors.New("no repository to keep bh's copies in")

// Compare is Check's slow path, and bh doctor's check: it compares the
// tree with bh's copies, whatever the stamp; with record, what came by
// other ways than bh's writes is kept as the newest copy.
func (kp *Keeper) Compare(record bool) ([]Lost, error) {
	k, err := kp.keep()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoKeep, err)
	}
	// Read before the files: a file changed since is compared. The time
	// the tree was last found whole, not that of bh's last copy: a copy
	// of another file kept since (a hand edit bh took in) says nothing of
	// this one, which git may have taken back before it.
	verified := kp.verifiedAt(k).Truncate(time.Second)
	kept, err := k.Files()
	if err != nil {
		return nil, err
	}
	present, err := kp.storeFiles()
	if err != nil {
		return nil, err
	}
	var lost []Lost
	take := map[string][]byte{} // nil: forget
	for rel, blob := range kept {
		e, ok := present[rel]
		var fi os.FileInfo
		if ok {
			if fi, err = e.Info(); err != nil {
				ok = false // gone since the folder was read
			}
		}
		switch {
		case !ok && k.Safe(rel, blob):
			take[rel] = nil
		case !ok:
			lost = append(lost, Lost{Rel: rel, Blob: blob, Missing: true})
		case changedAt(fi).Before(verified):
			// unchanged since the tree was last found whole
		default:
			lost = kp.compareFile(k, rel, blob, take, lost)
		}
	}
	kp.takeUnkept(k, kept, present, take, record && verified.IsZero())
	if record && len(take) > 0 {
		_ = k.Record(take) // a read-only git dir (an agent's sandbox): compared all the same
	}
	sort.Slice(lost, func(i, j int) bool { return lost[i].Rel < lost[j].Rel })
	return lost, nil
}

// takeUnkept puts into take the files the tree holds that bh has no copy
// of (a pull's, a new branch's), but those git's index holds unchanged:
// git keeps them, and a clone's first command need not read 10k files.
// On the first check in a repository (first: no stamp saved yet), every
// file the index holds is git's: bh has written nothing here to lose, and
// asking git which of them changed would hash every file of a fresh clone
// (git diff-files: 60-130 ms at 10k tasks, BenchmarkVsRelease/list-cold).
// From the next check on, an index file the tree holds changed (a hand
// edit, a pull's merge) is bh's to keep.
func (kp *Keeper) takeUnkept(k *git.Keep, kept map[string]string, present map[string]fs.DirEntry, take map[string][]byte, first bool) {
	var unkept []string
	for rel := range present {
		if _, ok := kept[rel]; !ok {
			unkept = append(unkept, rel)
		}
	}
	var inGit map[string]string
	var changed map[string]bool
	if len(unkept) > manyUnkept {
		inGit, _ = k.IndexBlobs()
		if !first && len(inGit) > 0 {
			if c, err := k.ChangedFromIndex(); err == nil {
				changed = c
			} else {
				inGit = nil
			}
		}
	}
	for _, rel := range unkept {
		if _, ok := inGit[rel]; ok && !changed[rel] {
			continue // git holds it as the tree has it: a loss of it is git's to undo
		}
		if data, err := os.ReadFile(filepath.Join(kp.s.Dir, rel)); err == nil {
			take[rel] = data
		}
	}
}

// compareFile compares the tree's rel, changed since bh kept blob, with
// it: an older version is lost (unless git keeps blob), a newer one goes
// into take.
func (kp *Keeper) compareFile(k *git.Keep, rel, blob string, take map[string][]byte, lost []Lost) []Lost {
	data, err := os.ReadFile(filepath.Join(kp.s.Dir, rel))
	switch {
	case err != nil || git.BlobOf(data) == blob:
	case !kp.older(k, rel, data, blob):
		take[rel] = data // a hand edit, a pull: the newest copy
	case !k.Safe(rel, blob):
		lost = append(lost, Lost{Rel: rel, Blob: blob})
	}
	return lost
}

// older reports whether a task file is an older version of bh's copy (by
// its updatedAt, then, within one second, its history): git took it back.
// A hand edit keeps both, or moves them on.
func (kp *Keeper) older(k *git.Keep, rel string, data []byte, blob string) bool {
	id, ok := taskFileID(rel)
	if !ok {
		// bh does not write config.yaml (but at bh init): any version
		// there, the committed one too, is the user's to choose.
		return false
	}
	mine, err := k.Read(blob)
	if err != nil {
		return false
	}
	now, err1 := task.Decode(rel, data, id)
	was, err2 := task.Decode(rel, mine, id)
	if err1 != nil || err2 != nil {
		return false
	}
	return now.UpdatedAt.Before(was.UpdatedAt) || now.UpdatedAt.Equal(was.UpdatedAt) && len(now.History) < len(was.History)
}

func taskFileID(rel string) (string, bool) {
	name, ok := strings.CutPrefix(rel, "tasks/")
	id := strings.TrimSuffix(name, ".yaml")
	return id, ok && id != name && task.ValidID(id)
}

// storeFiles lists the files bh keeps as the tree holds them. Each is
// stamped only when asked (Info): a clone's first command keeps none of
// its 10k files yet, and need not stat them.
func (kp *Keeper) storeFiles() (map[string]fs.DirEntry, error) {
	out := map[string]fs.DirEntry{}
	if fi, err := os.Lstat(kp.s.ConfigPath()); err == nil && fi.Mode().IsRegular() {
		out["config.yaml"] = fs.FileInfoToDirEntry(fi)
	}
	ents, err := os.ReadDir(filepath.Join(kp.s.Dir, "tasks"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read tasks: %w", err)
	}
	for _, e := range ents {
		rel := "tasks/" + e.Name()
		if _, ok := taskFileID(rel); !ok || !e.Type().IsRegular() {
			continue
		}
		out[rel] = e
	}
	return out, nil
}

// Restore writes bh's copies of lost files back, through the store.
func (kp *Keeper) Restore(lost []Lost) error {
	k, err := kp.keep()
	if err != nil {
		return err
	}
	var errs []error
	for _, l := range lost {
		data, err := k.Read(l.Blob)
		if err == nil {
			if id, ok := taskFileID(l.Rel); ok {
				err = kp.s.PutFile(id, data)
			} else {
				err = kp.s.PutConfig(data)
			}
		}
		if err == nil && kp.s.Keep == nil {
			err = k.Record(map[string][]byte{l.Rel: data})
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("restore .bh/%s: %w", l.Rel, err))
		}
	}
	return errors.Join(errs...)
}

// The stamp lives in the git dir, out of git clean's reach.
func (kp *Keeper) stamp() string {
	var b strings.Builder
	for _, p := range []string{kp.s.Dir, filepath.Join(kp.s.Dir, "tasks"), kp.s.ConfigPath()} {
		fi, err := os.Stat(p)
		if err != nil {
			if p == kp.s.ConfigPath() {
				continue // gone: .bh's own mtime says so
			}
			return ""
		}
		ino := uint64(0)
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			ino = st.Ino
		}
		fmt.Fprintf(&b, "%d %d ", fi.ModTime().UnixNano(), ino)
	}
	return b.String() + "\n"
}

// The stamp of the tree as it stood when last found whole is one file;
// what was lost, when it was not, another beside it (the stamp, then a
// line per lost file: rel, blob, "gone" or "older", tab-separated), so
// that a tree that lost files is compared once, and the time of the last
// whole tree (verifiedAt) stays that.

// verifiedAt is when the tree was last found to hold everything bh wrote
// (the stamp saved), zero when never.
func (kp *Keeper) verifiedAt(k *git.Keep) time.Time {
	fi, err := os.Stat(k.StampPath())
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// saved is what the saved stamps say of the tree as it stands (cur):
// whole (ok, no lost), lost what it names (ok), or not known (!ok).
func (kp *Keeper) saved(k *git.Keep, cur string) (lost []Lost, ok bool) {
	if cur == "" {
		return nil, false
	}
	if b, err := os.ReadFile(k.StampPath()); err == nil && string(b) == cur {
		return nil, true
	}
	b, err := os.ReadFile(lostPath(k))
	if err != nil {
		return nil, false
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	if first+"\n" != cur {
		return nil, false
	}
	for line := range strings.SplitSeq(rest, "\n") {
		if f := strings.Split(line, "\t"); len(f) == 3 {
			lost = append(lost, Lost{Rel: f[0], Blob: f[1], Missing: f[2] == "gone"})
		}
	}
	return lost, true
}

func lostPath(k *git.Keep) string { return k.StampPath() + ".lost" }

// SaveStamp saves the stamp of the tree as it is: bh doctor --fix, once
// nothing is lost.
func (kp *Keeper) SaveStamp() {
	if k, err := kp.keep(); err == nil {
		kp.save(k, kp.stamp(), nil)
	}
}

func (kp *Keeper) save(k *git.Keep, stamp string, lost []Lost) {
	if stamp == "" {
		return
	}
	if len(lost) == 0 {
		os.Remove(lostPath(k))
		overwrite(k.StampPath(), []byte(stamp)) // torn, it only matches nothing
		return
	}
	var b strings.Builder
	b.WriteString(stamp)
	for _, l := range lost {
		state := "older"
		if l.Missing {
			state = "gone"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", l.Rel, l.Blob, state)
	}
	os.WriteFile(lostPath(k), []byte(b.String()), 0o644)
}

// overwrite writes data over the file at path, which it never truncates
// to nothing: ext4 writes a file truncated to nothing out to disk when
// it is closed (auto_da_alloc), and os.WriteFile's O_TRUNC made saving
// the stamp half of what keeping costs bh add (perf, 100 adds at 10k).
func overwrite(path string, data []byte) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.WriteAt(data, 0); err == nil {
		f.Truncate(int64(len(data)))
	}
}

// ForgetKept forgets bh's copy of task id, whose file is gone (bh rm of
// a task the tree lost on purpose); false when there was none.
func ForgetKept(s *store.Store, id string) (bool, error) {
	k, err := git.OpenKeep(s.Root)
	if err != nil {
		return false, err
	}
	rel := "tasks/" + id + ".yaml"
	if blob, err := k.Lookup(rel); err != nil || blob == "" {
		return false, err
	}
	if err := k.Record(map[string][]byte{rel: nil}); err != nil {
		return true, err
	}
	os.Remove(lostPath(k)) // the loss it remembered is no loss now: compare afresh
	return true, nil
}
