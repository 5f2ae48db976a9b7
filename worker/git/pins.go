package git

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// userPins are the user's own values of the settings that start a
// program, read from the main repository (its config, the user's global
// and system ones: never a worktree's), kept until its config changes.
type userPins struct {
	mu    sync.Mutex
	stamp string // the repository config's size and time when read
	args  []string
	hooks string // the user's hooks folder (see HooksDir)
}

// pins are the -c settings every git command in a task's worktree runs
// with; git hands them on to the gits it starts (a submodule's) in
// GIT_CONFIG_PARAMETERS, above every config file. No file monitor (its
// hook is a program a config names); no hooks, as every git command of
// bh's (noHooks); the user's own ssh command, external diff and
// credential helpers, or none; no ext:: transport (a command line);
// submodules never entered.
func (r *Repo) pins() []string {
	args, _ := r.userSettings()
	return args
}

// HooksDir is the folder of the user's own git hooks: core.hooksPath as
// the main repository's config (the user's global and system ones, never
// a worktree's) sets it, a relative one taken from the main tree where
// the agent cannot write (husky's .husky/_), else the common dir's
// hooks. bh's git never runs them (noHooks): the commit hooks among them
// run sandboxed, over the agent's tree (CommitHooks).
func (r *Repo) HooksDir() string {
	if r.main != nil {
		return r.main.HooksDir()
	}
	_, hooks := r.userSettings()
	return hooks
}

// userSettings are the pins and the hooks folder, read again when the
// repository's config changed.
func (r *Repo) userSettings() ([]string, string) {
	p := r.userPins
	if p == nil {
		return basePins(nil), filepath.Join(r.commonDir, "hooks")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	stamp := ""
	if fi, err := os.Stat(filepath.Join(r.commonDir, "config")); err == nil {
		stamp = fi.ModTime().Format(time.RFC3339Nano) + " " + strconv.FormatInt(fi.Size(), 10)
	}
	if p.args == nil || stamp != p.stamp {
		p.args, p.hooks = r.readPins()
		p.stamp = stamp
	}
	return p.args, p.hooks
}

func basePins(user []string) []string {
	args := []string{"-c", "core.fsmonitor=false",
		"-c", "protocol.ext.allow=never", "-c", "submodule.recurse=false", "-c", "credential.helper="}
	for _, kv := range user {
		args = append(args, "-c", kv)
	}
	return args
}

// readPins reads the user's values (see pins and HooksDir) in the main
// tree.
func (r *Repo) readPins() ([]string, string) {
	hooks := filepath.Join(r.commonDir, "hooks")
	out, _ := r.Run(r.Root, Env("LC_ALL=C"), nil, "config", "-z", "--get-regexp",
		`^(core\.hookspath|core\.sshcommand|diff\.external|credential\.helper)$`)
	recs := SplitNul(out)
	if n := len(recs); n > 0 && recs[n-1] == "core.hookspath\n"+os.DevNull {
		recs = recs[:n-1] // noHooks' own, on the command line: not the user's
	}
	var user, helpers []string
	for _, rec := range recs {
		key, val, _ := strings.Cut(rec, "\n")
		switch {
		case key == "core.hookspath":
			hooks = hooksDir(r.Root, val)
		case key == "credential.helper" && val == "":
			helpers = nil // the user's own reset
		case key == "credential.helper":
			helpers = append(helpers, key+"="+val)
		default:
			user = append(user, key+"="+val)
		}
	}
	return basePins(append(user, helpers...)), hooks
}

// hooksDir is the user's core.hooksPath made absolute: "~/" is the
// user's home, and a relative path is the main tree's (git would take it
// from the tree the hook runs in).
func hooksDir(root, val string) string {
	if rest, ok := strings.CutPrefix(val, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if filepath.IsAbs(val) {
		return val
	}
	return filepath.Join(root, val)
}
