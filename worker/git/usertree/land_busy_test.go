package usertree

import (
	"errors"
	"os/exec"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// git merge would overwrite an ignored file silently: Land refuses.
func TestWtLandRefusesOverIgnoredFile(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n", ".gitignore": ".env\n"})
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, ".env", "the agent's\n")
	gittest.Git(t, wt.Path, "add", "-f", ".env")
	gittest.Git(t, wt.Path, "commit", "-q", "-m", "the agent force-adds an ignored file")
	commit, err := commitWork(wt, base, "tm-1: work\n")
	if err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, r.Root, ".env", "the user's secret\n")
	err = Of(r).Land("main", commit, wtTaskPath)
	var lr *LandRefused
	if !errors.As(err, &lr) || !reflect.DeepEqual(lr.Paths, []string{".env"}) {
		t.Fatalf("Land: %v", err)
	}
	if gittest.Read(t, r.Root, ".env") != "the user's secret\n" || gittest.Rev(t, r.Root, "HEAD") != base {
		t.Fatal("the refused landing changed the user's tree")
	}
}

func TestWtLandRefusedWhileUserMerges(t *testing.T) {
	r, final, base, task := wtLandScene(t, true)
	gittest.Git(t, r.Root, "checkout", "-q", "-b", "side")
	gittest.Write(t, r.Root, "other.txt", "side\n")
	gittest.CommitAll(t, r.Root, "side")
	gittest.Git(t, r.Root, "checkout", "-q", "main")
	gittest.Git(t, r.Root, "merge", "-q", "--no-ff", "--no-commit", "side") // stops before committing
	gittest.Write(t, r.Root, wtTaskPath, task)
	entry, files := gittest.Git(t, r.Root, "ls-files", "-s", wtTaskPath), gittest.Hashes(t, r.Root)
	err := Of(r).Land("main", final, wtTaskPath)
	var lr *LandRefused
	if !errors.As(err, &lr) || lr.Reason == "" {
		t.Fatalf("Land during the user's merge: %v", err)
	}
	t.Logf("refusal: %v", err)
	if gittest.Rev(t, r.Root, "HEAD") != base || gittest.Git(t, r.Root, "ls-files", "-s", wtTaskPath) != entry {
		t.Fatal("the refused landing changed HEAD or the task file's index entry")
	}
	if !reflect.DeepEqual(gittest.Hashes(t, r.Root), files) {
		t.Fatal("the refused landing changed files")
	}
}

// During a rebase git lists the tree as detached, yet sets main when done:
// Land must not move main under it.
func TestWtLandRefusedWhileUserRebasesTarget(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n", "other.txt": "other\n"})
	first := gittest.Rev(t, r.Root, "HEAD")
	gittest.Write(t, r.Root, "other.txt", "main\n")
	gittest.CommitAll(t, r.Root, "main")
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, "a.txt", "agent\n")
	final, err := commitWork(wt, base, "tm-1: work\n")
	if err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, r.Root, "checkout", "-q", "-b", "side", first)
	gittest.Write(t, r.Root, "other.txt", "side\n")
	gittest.CommitAll(t, r.Root, "side")
	gittest.Git(t, r.Root, "checkout", "-q", "main")
	if err := exec.Command("git", "-C", r.Root, "rebase", "-q", "side").Run(); err == nil {
		t.Fatal("the rebase should conflict")
	}
	err = Of(r).Land("main", final, wtTaskPath)
	var lr *LandRefused
	if !errors.As(err, &lr) || lr.Dir != r.Root {
		t.Fatalf("Land during a rebase of main: %v", err)
	}
	if gittest.Rev(t, r.Root, "refs/heads/main") != base {
		t.Fatal("main moved under the user's rebase")
	}
}
