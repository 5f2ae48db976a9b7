package fakeapi

import "os"

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
