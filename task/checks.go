package task

import (
	"fmt"
	"strings"
)

// CheckCommands accepts a list of shell commands: none of them blank.
func CheckCommands(cmds []string) error {
	if i := BlankCheck(cmds); i >= 0 {
		return fmt.Errorf("entry %d is empty: want a shell command, such as make test", i+1)
	}
	return nil
}

// BlankCheck is the index of the first blank command, -1 when none is.
func BlankCheck(cmds []string) int {
	for i, cmd := range cmds {
		if strings.TrimSpace(cmd) == "" {
			return i
		}
	}
	return -1
}
