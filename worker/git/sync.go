package git

import (
	"fmt"
	"strconv"
	"strings"
)

// StoreChanges lists what is uncommitted under paths (bh's store): git's
// porcelain status lines, untracked files each on its own.
func (r *Repo) StoreChanges(paths ...string) ([]string, error) {
	args := append([]string{"status", "--porcelain", "-z", "--untracked-files=all", "--no-renames", "--"}, paths...)
	out, err := r.Read(nil, args...)
	if err != nil {
		return nil, err
	}
	return SplitNul(out), nil
}

// Ahead counts the commits of a not in b, and of b not in a; with no b,
// every commit of a.
func (r *Repo) Ahead(a, b string) (int, int, error) {
	if b == "" {
		out, err := r.Read(nil, "rev-list", "--count", a)
		if err != nil {
			return 0, 0, err
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(out)))
		return n, 0, err
	}
	out, err := r.Read(nil, "rev-list", "--left-right", "--count", a+"..."+b)
	if err != nil {
		return 0, 0, err
	}
	var x, y int
	if _, err := fmt.Sscan(string(out), &x, &y); err != nil {
		return 0, 0, fmt.Errorf("rev-list: %q: %w", out, err)
	}
	return x, y, nil
}

// RegisterMergeDriver defines, in the repository's config, the merge
// driver that .bh/.gitattributes names for task files. A fresh clone lacks
// it until bh init or bh sync runs there.
func (r *Repo) RegisterMergeDriver(name string) error {
	for _, kv := range [][2]string{
		{"merge." + name + ".name", "bh task files, field by field"},
		{"merge." + name + ".driver", "bh merge-file %O %A %B %P"},
	} {
		// Read first: writing takes config.lock, which every sync would
		// otherwise wait on, and the user's config is left alone.
		if out, err := r.Read(nil, "config", "--get", kv[0]); err == nil && strings.TrimSpace(string(out)) == kv[1] {
			continue
		}
		if _, err := r.Write(nil, "config", kv[0], kv[1]); err != nil {
			return fmt.Errorf("register the merge driver: %w", err)
		}
	}
	return nil
}

// Maintain runs git's automatic housekeeping (`git maintenance run
// --auto`: gc --auto and whatever else the user's configuration enables),
// which git commit starts after every commit and bh's commits leave out so
// that no task waits for it. The worker calls it when it has nothing to do.
// It returns quickly when nothing is due, and git runs a due gc in the
// background unless gc.autoDetach is false.
func (r *Repo) Maintain() error {
	if _, err := r.Write(nil, "maintenance", "run", "--auto", "--quiet"); err != nil {
		return fmt.Errorf("git maintenance: %w", err)
	}
	return nil
}
