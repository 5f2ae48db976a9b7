package cmd

import (
	"testing"

	"github.com/spf13/cobra"
)

// Every command and subcommand shows how it is used: its help has an
// Example.
func TestEveryCommandHasExamples(t *testing.T) {
	f, _, _ := testFactory()
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		n++
		if c.Example == "" {
			t.Errorf("%q has no Example in its help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(f))
	if n < 25 {
		t.Errorf("walked %d commands: the tree is not the whole of bh", n)
	}
}
