//go:build linux

package e2e

import (
	"fmt"
	"os"
	"strings"

	"github.com/bh-tracker/bh/agent/proc/proctest"
)

// TTYPush is the terminal attack as a program (ttypush, see Bin):
// `ttypush CANARY [agent|hook]` pushes "touch CANARY" into every terminal
// it can reach (proctest.PushInput) and says on stderr what it did; as a
// command agent it also writes work.txt and reports completed; as a hook
// it writes what it did, and the name of its PID namespace's first
// process (bwrap in a sandbox), to ttypush.report in its working directory.
func TTYPush() int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: ttypush CANARY [agent|hook]")
		return 2
	}
	lines := proctest.PushInput("touch " + os.Args[1] + "\n")
	fmt.Fprintln(os.Stderr, strings.Join(lines, "\n"))
	if len(os.Args) > 2 && os.Args[2] == "hook" {
		init, _ := os.ReadFile("/proc/1/comm")
		lines = append(lines, "pid 1: "+strings.TrimSpace(string(init)))
		if err := os.WriteFile("ttypush.report", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if len(os.Args) > 2 && os.Args[2] == "agent" {
		if err := os.WriteFile("work.txt", []byte("pushed\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(`{"status":"completed","summary":"pushed input into every terminal in reach"}`)
	}
	return 0
}
