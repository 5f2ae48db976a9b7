package git

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// SignError is a commit git could not sign as the user's git config asks
// (commit.gpgsign; gpg.format openpgp, x509 or ssh): a key missing,
// locked or unknown to its program. Not the agent's error: the commit is
// not made, and nothing is committed unsigned in its place.
type SignError struct {
	Said string // git's and the signing program's words
	Err  error
}

func (e *SignError) Error() string {
	return "git could not sign the commit as your git config asks (commit.gpgsign): " + e.Said
}

func (e *SignError) Unwrap() error { return e.Err }

// Signs reports whether the user's git config asks for signed commits.
func (r *Repo) Signs() bool {
	out, err := r.Read(nil, "config", "--type=bool", "commit.gpgsign")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// signFailure is err as a *SignError when it is a commit that failed
// while the config asks for signed ones and git or its signing program
// says the signature failed; err as it was otherwise. Only their own
// words count: a hook's refusal may well speak of keys.
func (r *Repo) signFailure(err error) error {
	ge, ok := errors.AsType[*gitError](err)
	if !ok || !r.Signs() {
		return err
	}
	said := strings.ToLower(ge.Stderr)
	for _, w := range signWords {
		if strings.Contains(said, w) {
			return &SignError{Said: signSaid(ge.Stderr), Err: err}
		}
	}
	return err
}

// signWords are what git 2.39, gpg and ssh-keygen -Y sign say when a
// signature fails (git commit ends with "failed to write commit object").
var signWords = []string{"failed to write commit object", "failed to sign", "couldn't load public key",
	"load key", "no private key", "signing failed"}

// signSaid is the first line of s that says why (git ends with "fatal:
// failed to write commit object" after the signing program's words).
func signSaid(s string) string {
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, "failed to write commit object") {
			return strings.TrimPrefix(l, "error: ")
		}
	}
	return strings.TrimSpace(s)
}

// CommitTree records tree with parents and message as a commit, through
// git commit-tree, signed as the user's git config asks: commit-tree
// reads no commit.gpgsign (git 2.39, measured), so -S is given when it is
// set, and gpg.format and user.signingkey choose the key as git commit
// would. env (nil: git's own) names the author and committer; a signing
// failure is a *SignError. Every commit bh puts on the user's branches is
// made here or by git commit; bh's own refs' records (claims, holds,
// parked snapshots) are never signed.
func (r *Repo) CommitTree(env []string, tree, message string, parents ...string) (string, error) {
	args := []string{"commit-tree", tree}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	if r.Signs() {
		args = append(args, "-S")
	}
	if env == nil {
		env = Env()
	}
	out, err := r.Run(r.Root, env, []byte(message), append(args, "-F", "-")...)
	if err != nil {
		return "", fmt.Errorf("commit: %w", r.signFailure(err))
	}
	return strings.TrimSpace(string(out)), nil
}

// gitDate is t as git's raw date: seconds and zone.
func gitDate(t time.Time) string { return fmt.Sprintf("%d %s", t.Unix(), t.Format("-0700")) }
