package git

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// wtSubRepo is wtRepo with a submodule at lib/, made from a local
// repository; initialised in the user's tree (their .git/modules/lib)
// when userInit.
func wtSubRepo(t *testing.T, userInit bool) *Repo {
	t.Helper()
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	lib := filepath.Join(filepath.Dir(r.Root), "lib-origin")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, lib, "init", "-q", "-b", "main")
	gittest.Write(t, lib, "lib.go", "package lib\n")
	gittest.Git(t, lib, "add", "-A")
	gittest.Git(t, lib, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "lib")
	gittest.Git(t, r.Root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	gittest.Git(t, r.Root, "commit", "-q", "-m", "lib as a submodule")
	if !userInit {
		gittest.Git(t, r.Root, "submodule", "deinit", "-q", "-f", "lib")
		if err := os.RemoveAll(filepath.Join(r.Root, ".git", "modules")); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// A slot has its submodules checked out, from the user's own clone of it
// or, when they never initialised it, from its URL; a change inside one
// is named, a change beside it is not.
func TestWtSubmodulesCheckedOutAndChangesNamed(t *testing.T) {
	for _, userInit := range []bool{true, false} {
		name := map[bool]string{true: "from the user's clone", false: "from its URL"}[userInit]
		t.Run(name, func(t *testing.T) {
			r := wtSubRepo(t, userInit)
			base := gittest.Rev(t, r.Root, "HEAD")
			wt, err := r.ResetSlot(filepath.Join(filepath.Dir(r.Root), "pool", "1"), "tm-1", "bh/tm-1", base, r.Root, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := gittest.Read(t, wt.Path, "lib/lib.go"); got != "package lib\n" {
				t.Fatalf("the slot's submodule holds %q", got)
			}
			changes := func() []string {
				t.Helper()
				got, err := wt.SubmoduleChanges(base)
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			if got := changes(); len(got) != 0 {
				t.Fatalf("a fresh slot's submodules changed: %v", got)
			}
			gittest.Write(t, wt.Path, "a.txt", "beside\n")
			if got := changes(); len(got) != 0 {
				t.Fatalf("a change beside the submodule is named as inside: %v", got)
			}
			gittest.Write(t, wt.Path, "lib/lib.go", "package lib // edited\n")
			if got := changes(); !reflect.DeepEqual(got, []string{"lib"}) {
				t.Fatalf("an edit inside lib/: %v, want [lib]", got)
			}
			gittest.Git(t, filepath.Join(wt.Path, "lib"), "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-am", "inside")
			if got := changes(); !reflect.DeepEqual(got, []string{"lib"}) {
				t.Fatalf("a commit inside lib/: %v, want [lib]", got)
			}

			// The next task in the slot starts from the gitlink's commit.
			if err := r.ReleaseSlot(wt.Path, "tm-1", "bh/tm-1", true); err != nil {
				t.Fatal(err)
			}
			wt, err = r.ResetSlot(wt.Path, "tm-2", "bh/tm-2", base, r.Root, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := gittest.Read(t, wt.Path, "lib/lib.go"); got != "package lib\n" {
				t.Fatalf("the next task's submodule holds %q", got)
			}
			if got := changes(); len(got) != 0 {
				t.Fatalf("the next task's submodules changed: %v", got)
			}
		})
	}
}

func TestWtSubmoduleNamesThatClimbOutAreRefused(t *testing.T) {
	for name, want := range map[string]bool{"lib": true, "a/b": true, "a.b": true, "": false, "../x": false,
		"a/../../x": false, "/etc": false, "a//b": false, `a\b`: false} {
		if got := safeName(name); got != want {
			t.Errorf("safeName(%q) = %v, want %v", name, got, want)
		}
	}
}
