package git

import (
	"os"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

func TestWtRefsCreateOrVerify(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	first := gittest.Rev(t, r.Root, "HEAD")
	gittest.Write(t, r.Root, "a.txt", "b\n")
	second := gittest.CommitAll(t, r.Root, "second")
	const ref = "refs/bh/parked/tm-1"
	if got, err := r.Ref(ref); got != "" || err != nil {
		t.Fatalf("missing ref: %q, %v", got, err)
	}
	for _, c := range []string{first, first, second} {
		if err := r.SetRef(ref, c, "bh park"); err != nil {
			t.Fatal(err)
		}
		if got, err := r.Ref(ref); got != c || err != nil {
			t.Fatalf("Ref: %q, %v; want %s", got, err, c)
		}
	}
	gittest.Git(t, r.Root, "pack-refs", "--all") // packed refs read and delete as well
	if got, _ := r.Ref(ref); got != second {
		t.Fatalf("packed Ref: %q", got)
	}
	for i := 0; i < 2; i++ {
		if err := r.DeleteRef(ref); err != nil {
			t.Fatalf("DeleteRef #%d: %v", i+1, err)
		}
	}
	if got, _ := r.Ref(ref); got != "" {
		t.Fatalf("deleted ref still at %s", got)
	}
	if err := r.SetRef("refs/heads/main", first, "no"); err == nil {
		t.Fatal("SetRef moved a ref outside refs/bh/")
	}
	if gittest.Rev(t, r.Root, "refs/heads/main") != second {
		t.Fatal("main moved")
	}
}

func TestWtBranches(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	head := gittest.Rev(t, r.Root, "HEAD")
	if tip, err := r.BranchTip("main"); tip != head || err != nil {
		t.Fatalf("BranchTip(main): %q, %v", tip, err)
	}
	if tip, err := r.BranchTip("nope"); tip != "" || err != nil {
		t.Fatalf("BranchTip(nope): %q, %v", tip, err)
	}
	if b, err := r.CurrentBranch(); b != "main" || err != nil {
		t.Fatalf("CurrentBranch: %q, %v", b, err)
	}
	gittest.Git(t, r.Root, "checkout", "-q", "--detach")
	if b, err := r.CurrentBranch(); b != "" || err != nil {
		t.Fatalf("CurrentBranch when detached: %q, %v", b, err)
	}
}

func TestWtRemoveWorktree(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	wt, _ := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, "a.txt", "dirty\n")
	gittest.Write(t, wt.Path, "new.txt", "untracked\n")
	for i := 0; i < 2; i++ {
		if err := r.RemoveWorktree(wt.Path, "bh/tm-1"); err != nil {
			t.Fatalf("RemoveWorktree #%d: %v", i+1, err)
		}
	}
	if gittest.Exists(wt.Path, "") || strings.Contains(gittest.Git(t, r.Root, "worktree", "list"), wt.Path) {
		t.Fatal("the worktree is still there")
	}
	if tip, _ := r.BranchTip("bh/tm-1"); tip != "" {
		t.Fatal("the branch is still there")
	}

	// Already gone by hand: only its registration is left; the branch stays.
	wt, _ = wtEnsure(t, r, "tm-2")
	if err := os.RemoveAll(wt.Path); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveWorktree(wt.Path, ""); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(gittest.Git(t, r.Root, "worktree", "list"), wt.Path) {
		t.Fatal("the vanished worktree is still registered")
	}
	if tip, _ := r.BranchTip("bh/tm-2"); tip == "" {
		t.Fatal("the branch went though none was named")
	}
}

func TestWtWithFile(t *testing.T) {
	const wtTaskPath = ".bh/tasks/tm-1.yaml"
	r := wtRepo(t, map[string]string{"a.txt": "a\n", ".bh/tasks/tm-0.yaml": "other\n"})
	gittest.Write(t, r.Root, "a.txt", "b\n")
	commit := gittest.CommitAll(t, r.Root, "work\n\nbody")
	c1, err := r.WithFile(commit, wtTaskPath, []byte("status: done\n"))
	if err != nil {
		t.Fatal(err)
	}
	c2, err := r.WithFile(commit, wtTaskPath, []byte("status: done\n"))
	if err != nil || c2 != c1 {
		t.Fatalf("WithFile is not deterministic: %s, %s, %v", c1, c2, err)
	}
	if same, _ := r.WithFile(c1, wtTaskPath, []byte("status: done\n")); same != c1 {
		t.Fatal("WithFile of what the commit holds made another commit")
	}
	format := "%P%n%an <%ae> %at%n%cn <%ce> %ct%n%B"
	if gittest.Git(t, r.Root, "log", "-1", "--format="+format, c1) != gittest.Git(t, r.Root, "log", "-1", "--format="+format, commit) {
		t.Fatal("WithFile changed the parents, the people or the message")
	}
	if gittest.Git(t, r.Root, "show", c1+":"+wtTaskPath) != "status: done\n" {
		t.Fatal("the task file is not in the commit")
	}
	if got := gittest.Git(t, r.Root, "diff", "--name-only", commit, c1); got != wtTaskPath+"\n" {
		t.Fatalf("WithFile changed %q", got)
	}
	gittest.Git(t, r.Root, "fsck", "--strict", "--no-progress")
	stat, err := r.Diff(commit, c1, true)
	if err != nil || !strings.Contains(stat, "1 file changed") {
		t.Fatalf("diff --stat: %q, %v", stat, err)
	}
}
