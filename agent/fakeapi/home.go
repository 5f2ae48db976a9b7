package fakeapi

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Isolated runs a test binary's tests (run is m.Run) in a home of its own:
// HOME and the XDG folders point into a temporary folder, so that no test,
// and no bh, git, claude or codex a test starts, reads or writes the
// user's own (bh's registry of repositories, web.json, agents' sessions,
// git's configuration). Go's caches and settings and npm's configuration
// stay the user's: a new home would make every go in a test build from
// nothing, and npm lose its registry settings. It returns the exit code:
// the tests' own, or 1 when bh's folders under the user's real home
// changed while the tests ran, which is a test that escaped.
func Isolated(run func() int) int {
	home, err := os.MkdirTemp("", "bh-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeapi: a home for the tests:", err)
		return 1
	}
	defer os.RemoveAll(home)
	guarded := realBhDir()
	before := digest(guarded)
	keepTools()
	for _, kv := range homeEnv(home) {
		name, dir, _ := strings.Cut(kv, "=")
		os.MkdirAll(dir, 0o700)
		os.Setenv(name, dir)
	}
	// git commits need a name; nothing else of the machine's git settings
	// (signing, hooks, templates) reaches a test.
	os.WriteFile(filepath.Join(home, ".gitconfig"),
		[]byte("[user]\n\tname = bh tests\n\temail = tests@bh.invalid\n"), 0o644)
	code := run()
	if after := digest(guarded); after != before {
		fmt.Fprintf(os.Stderr, "a test wrote into the user's own bh folder (%s): every test must use its own home\n", guarded)
		return 1
	}
	return code
}

// keepTools pins what go and npm find through the home before it moves.
func keepTools() {
	if out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV").Output(); err == nil {
		for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"} {
			if v := strings.Split(string(out), "\n"); i < len(v) && v[i] != "" && os.Getenv(name) == "" {
				os.Setenv(name, v[i])
			}
		}
	}
	if h, err := os.UserHomeDir(); err == nil && os.Getenv("NPM_CONFIG_USERCONFIG") == "" {
		if _, err := os.Stat(filepath.Join(h, ".npmrc")); err == nil {
			os.Setenv("NPM_CONFIG_USERCONFIG", filepath.Join(h, ".npmrc"))
		}
	}
}

// realBhDir is bh's folder of the user's that no test may change: its
// config (the registry of repositories, web.json). Its state folder is
// left out: a worker of the user's, running meanwhile, writes there.
func realBhDir() string {
	base := os.Getenv("XDG_CONFIG_HOME")
	if home, err := os.UserHomeDir(); base == "" && err == nil {
		base = filepath.Join(home, ".config")
	}
	if base == "" {
		return ""
	}
	return filepath.Join(base, "bh")
}

// digest is what can be seen of dir without reading it whole: every
// entry's name, size and time, two levels deep (a task worktree's files
// are the worktree's business).
func digest(dir string) string {
	var rows []string
	if dir != "" {
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if rel, _ := filepath.Rel(dir, p); strings.Count(rel, string(filepath.Separator)) >= 2 && e.IsDir() {
				return filepath.SkipDir
			}
			if fi, err := e.Info(); err == nil {
				rows = append(rows, fmt.Sprintf("%s %d %d", p, fi.Size(), fi.ModTime().UnixNano()))
			}
			return nil
		})
	}
	sort.Strings(rows)
	return strings.Join(rows, "\n")
}

// memoryTemp is where MemoryTemp puts a test binary's scratch files, when
// the machine has it (see scratch_linux.go).
const memoryTemp = "/dev/shm"

// MemoryTemp points TMPDIR, and so every t.TempDir and every child's
// temporary files, at a roomy memory file system when the machine has one
// and the user chose no TMPDIR. End-to-end tests are thousands of small
// writes and fsyncs (git repositories, worktrees, task files), which a
// busy disk makes their slowest part: a crash scenario takes half the time
// there. A test binary whose agents run in no sandbox calls it first thing
// in TestMain: a sandbox's private /dev (bubblewrap's --dev, codex's own)
// hides /dev/shm, and a real codex's writes there were lost.
func MemoryTemp() {
	if os.Getenv("TMPDIR") == "" && roomy(memoryTemp) {
		os.Setenv("TMPDIR", memoryTemp)
	}
}
