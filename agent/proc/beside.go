package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// Beside is the path of one of bh's companion programs (bh-kube, bh-web):
// beside bh's own executable, else on PATH; false when there is none.
func Beside(name string) (string, bool) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, true
		}
	}
	p, err := exec.LookPath(name)
	return p, err == nil
}

// Become runs argv in this process's place (execve): its output, signals
// and exit code are the caller's. It returns only when it could not.
func Become(argv, env []string) error {
	Starting(argv)
	return syscall.Exec(argv[0], argv, env)
}
