// Command bh is a git-native task tracker for AI coding agents.
package main

import (
	"os"

	"github.com/bh-tracker/bh/cmd"
)

func main() { os.Exit(cmd.Main()) }
