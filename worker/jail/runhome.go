package jail

import (
	"cmp"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/agent/sandbox/gocache"
	"github.com/bh-tracker/bh/task/store"
)

// A task's sandboxed runs (the agent's, its checks', worktree.setup's)
// get a folder of their own in bh's state dir,
// <state>/sandbox/<repository>/<task>, beside its agent state:
//   - gitconfig, which bh writes before each run and binds read-only at
//     the empty home's .gitconfig: the user's identity, nothing else (no
//     credential helper, no include, no program to start).
//   - cache/, the run's own package caches, named in its environment: Go's
//     module and build caches, npm's, pip's, cargo's home, and
//     XDG_CACHE_HOME for the rest. Only that task's sandboxed runs write or
//     read them; nothing outside a sandbox does, and the task's ending drops
//     them. The user's own caches are readable in the sandbox, never
//     writable: Go fills the run's module cache from the user's download
//     cache (GOPROXY=file://…, ahead of the user's own proxy), without the
//     network, and its build cache answers from the user's first
//     (GOCACHEPROG: bh's own binary, package gocache, inside the sandbox).

// RunHomesOf is the folder of the repository's tasks' own folders.
func RunHomesOf(s *store.Store, commonDir string) string {
	if state := StateDir(); state != "" {
		return filepath.Join(state, "sandbox", RepoKey(s, commonDir))
	}
	return filepath.Join(commonDir, "bh", "sandbox")
}

// RunHome is task id's own folder.
func (j *Jail) RunHome(id string) string { return filepath.Join(RunHomesOf(j.Store, j.CommonDir), id) }

// runCaches are the run's caches: the variable that names each, and its
// folder under cache/. The run's temporary files go there too, not to the
// sandbox's /tmp: codex's own sandbox mounts a /tmp of its own over it,
// where the helper it starts its commands through (codex-linux-sandbox,
// under TMPDIR) would not be found.
var runCaches = [][2]string{{"GOMODCACHE", "gomod"}, {"GOCACHE", "gobuild"}, {"npm_config_cache", "npm"},
	{"GOTMPDIR", "gotmp"}, {"PIP_CACHE_DIR", "pip"}, {"CARGO_HOME", "cargo"}, {"XDG_CACHE_HOME", "xdg"},
	{"TMPDIR", "tmp"}, {"CLAUDE_CODE_TMPDIR", "tmp"}}

// runHome puts task id's own folder into p: its caches writable and named
// in the environment, its .gitconfig in the home. bh's own check of an
// agent (no task) gets neither.
func (j *Jail) runHome(p *sandbox.Policy, id, home string) error {
	p.Hidden = append(p.Hidden, RunHomesOf(j.Store, j.CommonDir)) // under the git dir when there is no state dir
	if id == "" {
		return nil
	}
	dir := j.RunHome(id)
	for _, c := range runCaches {
		d := filepath.Join(dir, "cache", c[1])
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
		p.SetEnv = append(p.SetEnv, c[0]+"="+d)
	}
	p.Writable = append(p.Writable, filepath.Join(dir, "cache"))
	p.SetEnv = append(p.SetEnv, goEnv(j.Getenv, home)...)
	if prog := goCacheProg(j.Getenv, home, filepath.Join(dir, "cache", "gobuild")); prog != nil {
		p.SetEnv = append(p.SetEnv, "GOCACHEPROG="+strings.Join(prog, " "))
		p.Readable = append(p.Readable, programDir(prog[0])...) // bh's binary
	}
	conf := filepath.Join(dir, "gitconfig")
	if err := ReplaceFile(conf, gitConfig(j.Identity), 0o644); err != nil {
		return err
	}
	if home != "" {
		p.Files = map[string]string{filepath.Join(home, ".gitconfig"): conf}
	}
	return nil
}

// goEnv are Go's settings for the run's caches: its module cache stays
// removable by bh (-modcacherw), and fills from the user's download cache
// first.
func goEnv(getenv func(string) string, home string) []string {
	env := []string{"GOFLAGS=" + strings.TrimSpace(getenv("GOFLAGS")+" -modcacherw")}
	mod := sandbox.Expand(userModCache(getenv), home, "/")
	if mod == "" {
		return env
	}
	dl := filepath.Join(mod, "cache", "download")
	if ok, dir := exists(dl); ok && dir {
		proxy := getenv("GOPROXY")
		if proxy == "" {
			proxy = "https://proxy.golang.org,direct"
		}
		env = append(env, "GOPROXY=file://"+dl+","+proxy)
	}
	return env
}

// goCacheProg is the command line of a GOCACHEPROG that has go (1.24
// and later) find what the user's build cache
// holds, read-only, before it builds into the run's own (package
// gocache, served by bh inside the sandbox): a task's first build is as
// quick as the user's. None without the user's cache or bh's binary, or
// for paths go could not split.
func goCacheProg(getenv func(string) string, home, own string) []string {
	user := getenv("GOCACHE")
	if user == "" {
		user = filepath.Join(cmp.Or(getenv("XDG_CACHE_HOME"), filepath.Join(home, ".cache")), "go-build")
	}
	self := MCPCommand()
	if ok, dir := exists(user); !ok || !dir || self == nil || home == "" {
		return nil
	}
	args := []string{self.Command, gocache.Command, user, own}
	if slices.ContainsFunc(args, func(a string) bool { return strings.ContainsAny(a, " '\"\t\n") }) {
		return nil
	}
	return args
}

func exists(p string) (ok, dir bool) {
	fi, err := os.Stat(p)
	return err == nil, err == nil && fi.IsDir()
}

// gitConfig is the sandbox's ~/.gitconfig: the user's name and email, as
// git quotes them.
func gitConfig(identity func() (name, email string)) []byte {
	if identity == nil {
		return nil
	}
	name, email := identity()
	var b strings.Builder
	b.WriteString("[user]\n")
	for _, kv := range [][2]string{{"name", name}, {"email", email}} {
		if kv[1] != "" {
			b.WriteString("\t" + kv[0] + " = \"" + quote.Replace(strings.Map(printable, kv[1])) + "\"\n")
		}
	}
	return []byte(b.String())
}

var quote = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// printable drops control characters, which a git config value cannot
// hold unquoted.
func printable(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return -1
	}
	return r
}

// RemoveTree removes dir, whose read-only folders (a Go module cache's)
// are made writable first. No link in it is followed: only folders are
// changed, found without following links.
func RemoveTree(dir string) error {
	if os.RemoveAll(dir) == nil {
		return nil
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
