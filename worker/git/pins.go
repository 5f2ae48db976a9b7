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
}

// pins are the -c settings every git command in a task's worktree runs
// with; git hands them on to the gits it starts (a submodule's, a hook's)
// in GIT_CONFIG_PARAMETERS, above every config file. No file monitor
// (its hook is a program a config names); hooks from the user's own hooks
// folder, a relative one taken from the main tree, where the agent cannot
// write (husky's .husky/_ would be the worktree's otherwise); the user's
// own ssh command, external diff and credential helpers, or none; no
// ext:: transport (a command line); submodules never entered.
func (r *Repo) pins() []string {
	p := r.userPins
	if p == nil {
		return basePins(filepath.Join(r.commonDir, "hooks"), nil)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	stamp := ""
	if fi, err := os.Stat(filepath.Join(r.commonDir, "config")); err == nil {
		stamp = fi.ModTime().Format(time.RFC3339Nano) + " " + strconv.FormatInt(fi.Size(), 10)
	}
	if p.args == nil || stamp != p.stamp {
		p.args, p.stamp = r.readPins(), stamp
	}
	return p.args
}

func basePins(hooks string, user []string) []string {
	args := []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + hooks,
		"-c", "protocol.ext.allow=never", "-c", "submodule.recurse=false", "-c", "credential.helper="}
	for _, kv := range user {
		args = append(args, "-c", kv)
	}
	return args
}

// readPins reads the user's values (see pins) in the main tree.
func (r *Repo) readPins() []string {
	hooks := filepath.Join(r.commonDir, "hooks")
	out, _ := execGit(r.Root, Env("LC_ALL=C"), nil, "config", "-z", "--get-regexp",
		`^(core\.hookspath|core\.sshcommand|diff\.external|credential\.helper)$`)
	var user, helpers []string
	for _, rec := range SplitNul(out) {
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
	return basePins(hooks, append(user, helpers...))
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
