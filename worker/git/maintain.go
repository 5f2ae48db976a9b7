package git

import "fmt"

// Maintain runs git's automatic housekeeping (`git maintenance run
// --auto`: gc --auto and whatever else the user's configuration enables),
// which git commit starts after every commit and bh's commits leave out so
// that no task waits for it. The worker calls it when it has nothing to do.
// It returns quickly when nothing is due, and git runs a due gc in the
// background unless gc.autoDetach is false.
func (r *Repo) Maintain() error {
	if _, err := r.Write(nil, "maintenance", "run", "--auto", "--quiet"); err != nil {
		return fmt.Errorf("git maintenance: %w", err)
	}
	return nil
}
