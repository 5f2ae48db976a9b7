package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/internal/atomicfile"
)

// Store is the .bh/ folder of one git repository.
type Store struct {
	Root   string // the repository's top level
	Dir    string // Root/.bh
	local  string // see Local
	Config config.Config
	// Now is the clock; tests replace it.
	Now func() time.Time
	// Keep, when set, is told of every file the store writes (keep.go).
	Keep Keeper
	// Mapped maps the list cache and the output memos into memory rather
	// than reading them: for a process that reads, prints and exits (the
	// mappings last until it does). A listing at 10k tasks after an edit
	// costs 5-8 % less CPU so (bh list, bh ready: cmp.py's pairs).
	Mapped bool
}

// ErrNoStore means no .bh/ was found from the working directory up.
var ErrNoStore = errors.New("not in a bh repository (no .bh/ here or above)")

// ErrNoRepo means bh init was run outside a git repository.
var ErrNoRepo = errors.New("not in a git repository")

const gitignore = `# bh's local-only state: never committed
/locks/
/cache/
/runs/
/tmp/
/worker.lock
`

// MergeDriver names bh's merge driver for task files in .gitattributes
// and the repository's git config.
const MergeDriver = "bh-task"

// Find opens the store of the repository containing dir.
func Find(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if root, ok := markedRoot(d); ok {
			return open(root)
		}
		if fi, err := os.Stat(filepath.Join(d, ".bh", "tasks")); err == nil && fi.IsDir() {
			return open(d)
		}
		if filepath.Dir(d) == d {
			return nil, ErrNoStore
		}
	}
}

// Init creates .bh/ at the top of the git repository containing dir. It is
// harmless to run twice; created reports whether anything was new.
func Init(dir string) (s *Store, created bool, err error) {
	root, err := gitTop(dir)
	if err != nil {
		return nil, false, err
	}
	bh := filepath.Join(root, ".bh")
	for _, d := range []string{"tasks", "tmp"} {
		p := filepath.Join(bh, d)
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			created = true
		}
		mk := atomicfile.LocalDir // local state ignores itself
		if d == "tasks" {
			mk = func(p string) error { return os.MkdirAll(p, 0o755) }
		}
		if err := mk(p); err != nil {
			return nil, false, fmt.Errorf("init: %w", err)
		}
	}
	// tasks/ must exist in git even while empty.
	for name, body := range map[string]string{
		".gitignore":     ownFiles[".gitignore"],
		".gitattributes": ownFiles[".gitattributes"],
		"config.yaml":    "# bh configuration; see bh --help\nprefix: " + config.DefaultPrefix + "\n",
		"tasks/.gitkeep": "",
	} {
		p := filepath.Join(bh, name)
		if _, err := os.Stat(p); err == nil {
			continue
		}
		created = true
		if err := atomicfile.Write(filepath.Join(bh, "tmp"), p, []byte(body)); err != nil {
			return nil, false, fmt.Errorf("init: %w", err)
		}
	}
	s, err = open(root)
	return s, created, err
}

// ownFiles are bh's own files in .bh/, as bh init writes them: without
// .gitignore, git add -A commits bh's temp files; without .gitattributes,
// task files merge line by line.
var ownFiles = map[string]string{
	".gitignore":     gitignore,
	".gitattributes": "# task files merge field by field (bh merge-file)\ntasks/*.yaml merge=" + MergeDriver + "\n",
}

// MissingOwnFiles are bh's own files gone from .bh/ (a git rebase -i that
// dropped bh's commits, a hand removal), sorted.
func (s *Store) MissingOwnFiles() []string {
	var gone []string
	for _, name := range []string{".gitattributes", ".gitignore"} {
		if _, err := os.Lstat(filepath.Join(s.Dir, name)); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, name)
		}
	}
	return gone
}

// RestoreOwnFile writes bh's own file name back into .bh/, as bh init
// wrote it.
func (s *Store) RestoreOwnFile(name string) error {
	body, ok := ownFiles[name]
	if !ok {
		return fmt.Errorf("%s is not one of bh's own files", name)
	}
	return atomicfile.Write(filepath.Join(s.Dir, "tmp"), filepath.Join(s.Dir, name), []byte(body))
}

// RestoreOwnFiles writes back bh's own files gone from .bh/ and says so.
func (s *Store) RestoreOwnFiles() []string {
	var said []string
	for _, name := range s.MissingOwnFiles() {
		if err := s.RestoreOwnFile(name); err != nil {
			said = append(said, err.Error())
		} else {
			said = append(said, "wrote bh's own .bh/"+name+" back (a git rebase -i that dropped bh's commits?); commit it")
		}
	}
	return said
}

func open(root string) (*Store, error) {
	s := &Store{Root: root, Dir: filepath.Join(root, ".bh"), local: localDir(root), Now: time.Now}
	s.migrateLocal()
	c, err := config.Load(filepath.Join(s.Dir, "config.yaml"))
	if err != nil {
		return nil, err
	}
	s.Config = c
	return s, nil
}

// gitTop walks up from dir to the folder holding .git (a dir, or a file in
// worktrees and submodules).
func gitTop(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", ErrNoRepo
		}
	}
}

// Path is where the task with this ID is stored.
func (s *Store) Path(id string) string {
	return filepath.Join(s.Dir, "tasks", id+".yaml")
}

// RelPath is Path relative to the repository root, slash-separated.
func (s *Store) RelPath(id string) string {
	return ".bh/tasks/" + id + ".yaml"
}

func (s *Store) now() time.Time { return s.Now().UTC().Truncate(time.Second) }

// Shown is path as messages show it: relative to the repository where
// it lies inside, else as it is.
func (s *Store) Shown(path string) string {
	if r, err := filepath.Rel(s.Root, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}
