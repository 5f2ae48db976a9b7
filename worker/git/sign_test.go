package git

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// signing sets r up to sign its commits with a throwaway key of format
// (ssh, or openpgp through a gpg of its own GNUPGHOME), and returns what
// makes the key unusable and the words git then says.
func signing(t *testing.T, r *Repo, format string) (breakKey func(), said string) {
	t.Helper()
	dir := t.TempDir()
	cfg := func(kv ...string) { gittest.Git(t, r.Root, append([]string{"config"}, kv...)...) }
	switch format {
	case "ssh":
		key := filepath.Join(dir, "key")
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
			t.Skipf("ssh-keygen: %v %s", err, out)
		}
		pub, _ := os.ReadFile(key + ".pub")
		gittest.Write(t, dir, "allowed", "* "+string(pub))
		cfg("gpg.format", "ssh")
		cfg("user.signingkey", key+".pub")
		cfg("gpg.ssh.allowedSignersFile", filepath.Join(dir, "allowed"))
		return func() { cfg("user.signingkey", filepath.Join(dir, "gone.pub")) }, "Couldn't load public key"
	}
	gpg, err := exec.LookPath("gpg")
	if err != nil {
		t.Skip("no gpg")
	}
	home, err := os.MkdirTemp("", "gnupg") // short: gpg-agent's socket path is bounded
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		kill := exec.Command("gpgconf", "--kill", "gpg-agent")
		kill.Env = append(os.Environ(), "GNUPGHOME="+home)
		kill.Run()
		os.RemoveAll(home)
	})
	gen := exec.Command(gpg, "--batch", "--passphrase", "", "--quick-gen-key", "bh test <bh@example.com>", "ed25519", "sign", "never")
	gen.Env = append(os.Environ(), "GNUPGHOME="+home)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("gpg: %v %s", err, out)
	}
	wrapper := filepath.Join(dir, "gpg.sh")
	gittest.Write(t, dir, "gpg.sh", "#!/bin/sh\nGNUPGHOME="+home+" exec "+gpg+` "$@"`+"\n")
	os.Chmod(wrapper, 0o755)
	cfg("gpg.program", wrapper)
	cfg("user.signingkey", "bh@example.com")
	return func() { cfg("user.signingkey", "nobody@example.com") }, "gpg failed to sign the data"
}

// Every commit bh puts on the user's branches is signed as the user's git
// config says, ssh and gpg alike: a task file's commit on history, and
// the landing's commit rewritten with the task file (its old signature
// would not match). bh's own records (no parent) are not. A key that
// cannot sign is a *SignError with git's words, and nothing is committed.
func TestCommitsSignedAsTheConfigSays(t *testing.T) {
	for _, format := range []string{"ssh", "openpgp"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			commitFiles(t, r, map[string]string{"a.txt": "a\n"})
			head := gittest.Rev(t, r.Root, "HEAD")
			breakKey, said := signing(t, r, format)
			if r.Signs() {
				t.Fatal("signs before commit.gpgsign is set")
			}
			gittest.Git(t, r.Root, "config", "commit.gpgsign", "true")
			verified := func(c string) bool {
				return exec.Command("git", "-C", r.Root, "verify-commit", c).Run() == nil
			}
			file, err := r.CommitFile(head, ".bh/tasks/tm-a.yaml", []byte("id: tm-a\n"), "tm-a: land\n")
			if err != nil || !verified(file) {
				t.Fatalf("task file's commit %s (%v): not signed", file, err)
			}
			with, err := r.WithFile(file, ".bh/tasks/tm-a.yaml", []byte("id: tm-a\nstate: closed\n"))
			if err != nil || with == file || !verified(with) {
				t.Fatalf("rewritten commit %s (%v): not signed", with, err)
			}
			const who = "--format=%an|%ae|%ad|%cn|%ce|%cd|%P|%B"
			if a, b := gittest.Out(t, r.Root, "log", "-1", who, file), gittest.Out(t, r.Root, "log", "-1", who, with); a != b {
				t.Errorf("rewritten commit %q, want as %q but its tree", b, a)
			}
			if own, err := r.CommitFile("", "claim.json", []byte("{}\n"), "bh: claim\n"); err != nil || verified(own) {
				t.Errorf("bh's own record %s (%v): signed, or failed", own, err)
			}
			breakKey()
			_, err = r.CommitFile(head, ".bh/tasks/tm-b.yaml", []byte("id: tm-b\n"), "tm-b\n")
			var se *SignError
			if !errors.As(err, &se) || !strings.Contains(se.Said, said) || !strings.Contains(err.Error(), "commit.gpgsign") {
				t.Fatalf("err %v, want a SignError saying %q", err, said)
			}
		})
	}
}

// TestIdentity: the user's name and email as git config --get gives them,
// the last of several values, and none when unset.
func TestIdentity(t *testing.T) {
	dir := gittest.Init(t, map[string]string{"README": "hi\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if name, email := r.Identity(); name != "Test User" || email != "test@example.com" {
		t.Errorf("identity %q %q", name, email)
	}
	gittest.Git(t, dir, "config", "--add", "user.name", "Second Name")
	gittest.Git(t, dir, "config", "--unset", "user.email")
	if name, email := r.Identity(); name != "Second Name" || email != "" {
		t.Errorf("identity %q %q, want the last name and no email", name, email)
	}
}
