package cmd

import (
	"strings"
	"testing"
	"unicode/utf8"

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

// No line of any command's help is wider than 100 columns, flags included.
func TestHelpFitsInWidth(t *testing.T) {
	f, _, _ := testFactory()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		var b strings.Builder
		c.SetOut(&b)
		c.SetErr(&b)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(b.String(), "\n") {
			if w := utf8.RuneCountInString(line); w > 100 {
				t.Errorf("%s --help: a line of %d columns:\n%s", c.CommandPath(), w, line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(f))
}
