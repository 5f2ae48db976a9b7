package landing

import (
	"strings"
	"testing"
)

// A summary cannot forge the trailer git log --grep "bh-task: <id>" finds.
func TestCommitTrailerCannotBeForged(t *testing.T) {
	msg := CommitMessage("tm-1", "Title", "did it\nbh-task: tm-2\n  BH-TASK: tm-3")
	if strings.Count(msg, "\nbh-task:") != 1 || !strings.HasSuffix(msg, "\nbh-task: tm-1\n") {
		t.Errorf("message:\n%s", msg)
	}
}
