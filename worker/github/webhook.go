package github

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task/store"
)

// Webhook is bh serve's door for GitHub's webhooks (issues, issue_comment):
// a request signed with Secret (X-Hub-Signature-256, HMAC-SHA256 of the
// body) is heard at once by the registered repository whose github:
// names the repository it comes from, as a sync pass would hear it; any
// other request is refused and changes nothing.
type Webhook struct {
	Secret string
	// Repos lists the registered repositories (config.Registered).
	Repos func() ([]string, error)
	Logf  func(string, ...any)
}

// maxHook bounds a webhook's body: GitHub sends at most 25 MB.
const maxHook = 25 << 20

func (h Webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxHook))
	if err != nil {
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	if !Signed(h.Secret, body, r.Header.Get("X-Hub-Signature-256")) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	event := r.Header.Get("X-GitHub-Event")
	if event != "issues" && event != "issue_comment" {
		w.WriteHeader(http.StatusNoContent) // ping, and events bh does not use
		return
	}
	if err := h.hear(r.Context(), event, body); err != nil {
		if h.Logf != nil {
			h.Logf("github webhook: %v", err)
		}
		http.Error(w, "not heard", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Signed says whether sig ("sha256=<hex>") is body's HMAC-SHA256 with
// secret; no secret signs nothing.
func Signed(secret string, body []byte, sig string) bool {
	got, err := hex.DecodeString(strings.TrimPrefix(sig, "sha256="))
	if secret == "" || err != nil || !strings.HasPrefix(sig, "sha256=") {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hmac.Equal(got, mac.Sum(nil))
}

// hook is the part of a webhook's payload bh reads.
type hook struct {
	Action     string  `json:"action"`
	Issue      Issue   `json:"issue"`
	Comment    Comment `json:"comment"`
	Repository struct {
		FullName string `json:"full_name"`
		URL      string `json:"html_url"`
	} `json:"repository"`
}

// hear syncs the repository the event is from, with the event in place of
// the polls.
func (h Webhook) hear(ctx context.Context, event string, body []byte) error {
	var p hook
	if err := json.Unmarshal(body, &p); err != nil {
		return err
	}
	roots, err := h.Repos()
	if err != nil {
		return err
	}
	from := strings.ToLower(bareURL(p.Repository.URL))
	for _, root := range roots {
		s, err := store.Find(root)
		if err != nil || s.Config.GitHub == nil {
			continue
		}
		if repo, err := RepoOf(s, *s.Config.GitHub); err != nil || strings.ToLower(repo) != from {
			continue
		}
		_, err = Sync(ctx, s, *s.Config.GitHub, Options{By: "github", Logf: h.Logf, hear: func(x *syncer) error {
			return x.event(ctx, event, p)
		}})
		return err
	}
	return fmt.Errorf("no registered repository takes the issues of %s", p.Repository.FullName)
}

// event is what one webhook's event does: a new comment may answer, an
// issue opened, edited, labelled or closed is imported as a poll would.
func (x *syncer) event(ctx context.Context, event string, p hook) error {
	switch {
	case event == "issue_comment" && p.Action == "created":
		if p.Comment.IssueURL == "" {
			p.Comment.IssueURL = p.Issue.URL
		}
		return x.takeReply(ctx, p.Comment)
	case event == "issues" && p.Issue.PullRequest == nil && x.picks(p.Issue):
		return x.importOne(p.Issue)
	}
	return nil
}

// picks says whether the config takes is: its label, or its assignee.
func (x *syncer) picks(is Issue) bool {
	return slices.ContainsFunc(is.Labels, func(l Label) bool { return l.Name == x.cfg.IssueLabel() }) ||
		x.cfg.Assignee != "" && slices.ContainsFunc(is.Assignees, func(u User) bool { return u.Login == x.cfg.Assignee })
}
