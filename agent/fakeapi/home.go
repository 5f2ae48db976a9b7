package fakeapi

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Isolated runs a test binary's tests (run is m.Run) in a home of its own:
// HOME and the XDG folders point into a temporary folder, so that no test,
// and no bh, git, claude or codex a test starts, reads or writes the
// user's own (bh's registry of repositories, web.json, agents' sessions,
// git's configuration). Go's caches and settings and npm's configuration
// stay the user's: a new home would make every go in a test build from
// nothing, and npm lose its registry settings. It returns the tests' exit
// code. Nothing looks at the user's real folders: a bh of the user's,
// used meanwhile, changes them as it should.
func Isolated(run func() int) int {
	home, err := os.MkdirTemp("", "bh-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeapi: a home for the tests:", err)
		return 1
	}
	defer os.RemoveAll(home)
	keepTools()
	for _, kv := range homeEnv(home) {
		name, dir, _ := strings.Cut(kv, "=")
		os.MkdirAll(dir, 0o700)
		os.Setenv(name, dir)
	}
	// git commits need a name; nothing else of the machine's git settings
	// (signing, hooks, templates) reaches a test. No git command starts
	// another for auto-maintenance: the tests' repositories are tiny.
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = bh tests\n\temail = tests@bh.invalid\n"+QuietGit), 0o644)
	return run()
}

// QuietGit is git configuration that starts no housekeeping (git
// maintenance, gc --auto, a push's gc in the repository pushed to):
// a process or two after every commit, fetch and push, with nothing to
// do in a test's tiny repositories.
const QuietGit = "[maintenance]\n\tauto = false\n[gc]\n\tauto = 0\n[receive]\n\tautogc = false\n"

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
	if dir := MemoryDir(); dir != "" {
		os.Setenv("TMPDIR", dir)
	}
}

// MemoryDir is the memory file system MemoryTemp would use, or "" (no
// roomy one, or the user chose a TMPDIR): for a test binary that runs
// some agents in a sandbox, to put only its other tests' files there.
func MemoryDir() string {
	if os.Getenv("TMPDIR") == "" && roomy(memoryTemp) {
		return memoryTemp
	}
	return ""
}

// Overlap raises go test's -parallel to n, unless the command line gave
// one: for a test binary whose tests mostly wait on the processes they
// start (git, sandboxes, agents, bh itself). At go test's default, one
// test per core, such a binary kept the cores half idle (the worker's
// -short run: 42 s for 44 s of CPU on 2 cores; 32 s at 4). Call it in
// TestMain before m.Run.
func Overlap(n int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
}
