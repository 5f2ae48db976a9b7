package git

// Clone clones url into dir, a new folder: bh run-task's clone of the
// shared remote.
func Clone(url, dir string) error {
	_, err := hooklessGit("", "clone", "-q", "--", url, dir)
	return err
}
