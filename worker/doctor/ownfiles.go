package doctor

// checkOwnFiles reports bh's own .gitignore and .gitattributes gone from
// .bh/ (a git rebase -i that dropped bh's commits): git add -A would then
// commit bh's temp files, and task files would merge line by line.
func (d *doctor) checkOwnFiles() error {
	gone := d.s.MissingOwnFiles()
	for _, name := range gone {
		d.found(Finding{Check: "ignore", Status: Warn, Subject: ".bh/" + name,
			Message: "bh's own file is gone (a git rebase -i that dropped bh's commits?)",
			Fix:     "write it back as bh init did (then commit it)"},
			func() error { return d.s.RestoreOwnFile(name) })
	}
	if len(gone) == 0 {
		d.ok("ignore", "bh's .gitignore and .gitattributes are in .bh/")
	}
	return nil
}
