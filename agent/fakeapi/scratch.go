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
// there. Each test binary calls it first thing in TestMain.
func MemoryTemp() {
	if os.Getenv("TMPDIR") == "" && roomy(memoryTemp) {
		os.Setenv("TMPDIR", memoryTemp)
	}
}
