package cmd

import "github.com/bh-tracker/bh/cmd/ui"

// The terminal UI lives in cmd/ui, which the board shares; its types are
// the vocabulary of every command here.
type (
	IOStreams = ui.IOStreams
	picker    = ui.Picker
	pickOpt   = ui.PickOpt
)
