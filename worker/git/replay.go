package git

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Replay rebases tip's own commits onto onto without a worktree, as git
// rebase would (merges left out; see pick for commits already upstream):
// each is cherry-picked by git merge-tree --write-tree, the merge driver
// of bh's task files included, and recorded by commit-tree with its
// author, date and message. Only objects are written: a kill at any
// instant leaves unreferenced objects at most, which nothing trips on.
// A conflict changes nothing: *RebaseConflict.
func (r *Repo) Replay(tip, onto string) (string, error) {
	return r.ReplayOnto(onto, onto, "--right-only", onto+"..."+tip)
}

// ReplayOnto picks the commits rev-list selects with args, oldest first,
// onto cur, in a replay onto onto.
func (r *Repo) ReplayOnto(cur, onto string, args ...string) (string, error) {
	out, err := r.Read(nil, append([]string{"rev-list", "--reverse", "--topo-order", "--no-merges"}, args...)...)
	if err != nil {
		return "", fmt.Errorf("sync: list the commits to replay: %w", err)
	}
	for _, c := range strings.Fields(string(out)) {
		if cur, err = r.pick(cur, c, onto); err != nil {
			return "", err
		}
	}
	return cur, nil
}

// pick applies commit c on top of cur and returns the new commit (cur
// itself when c is bh's and changes nothing there).
func (r *Repo) pick(cur, c, onto string) (string, error) {
	parent, err := r.revParse(c + "^")
	if err != nil {
		return "", err
	}
	curTree, err := r.revParse(cur + "^{tree}")
	if err != nil {
		return "", err
	}
	// git 2.39's merge-tree takes no --merge-base: a probe commit whose
	// parents are cur and c's parent makes that parent the merge base of
	// the probe and c, as a cherry-pick has it.
	probe, err := r.Write([]byte("bh: sync probe"), "commit-tree", curTree, "-p", cur, "-p", parent, "-F", "-")
	if err != nil {
		return "", fmt.Errorf("sync: %w", err)
	}
	res, err := r.Write(nil, "merge-tree", "--write-tree", "--name-only", "-z", strings.TrimSpace(string(probe)), c)
	fields := strings.Split(string(res), "\x00")
	if IsExit(err, 1) {
		return "", &RebaseConflict{Onto: onto, Paths: conflictPaths(fields[1:])}
	}
	if err != nil {
		return "", fmt.Errorf("sync: replay %s: %w", Short(c), err)
	}
	tree := fields[0]
	env, msg, err := r.authorOf(c)
	if err != nil {
		return "", err
	}
	// Already there: bh's own commit goes (a task's would land twice); a
	// user's stays, empty, so that no commit of theirs ever leaves their
	// history (one that took in what a pull brought at the same instant).
	if tree == curTree && (strings.HasPrefix(msg, "bh: ") || strings.Contains(msg, "\nbh-task: ")) {
		return cur, nil
	}
	made, err := r.CommitTree(env, tree, msg, cur)
	if err != nil {
		return "", fmt.Errorf("sync: replay %s: %w", Short(c), err)
	}
	return made, nil
}

// conflictPaths reads the paths merge-tree -z --name-only names after
// the tree, each once, up to the empty field that ends them.
func conflictPaths(fields []string) []string {
	if end := slices.Index(fields, ""); end >= 0 {
		fields = fields[:end]
	}
	return slices.Compact(fields)
}

// authorOf is the environment that makes commit-tree record c's author
// and date, and c's message.
func (r *Repo) authorOf(c string) ([]string, string, error) {
	info, err := r.Read(nil, "log", "-1", "--format=%an%x00%ae%x00%ad%x00%B", "--date=raw", c)
	if err != nil {
		return nil, "", err
	}
	parts := strings.SplitN(string(info), "\x00", 4)
	if len(parts) != 4 {
		return nil, "", errors.New("sync: cannot read the author of " + Short(c))
	}
	env := Env("GIT_AUTHOR_NAME="+parts[0], "GIT_AUTHOR_EMAIL="+parts[1], "GIT_AUTHOR_DATE="+parts[2])
	return env, strings.TrimSuffix(parts[3], "\n"), nil
}

func (r *Repo) revParse(rev string) (string, error) {
	out, err := r.Read(nil, "rev-parse", "--verify", "-q", rev)
	if err != nil {
		return "", fmt.Errorf("sync: %s: %w", rev, err)
	}
	return strings.TrimSpace(string(out)), nil
}
