package config

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
)

// A Link is a capability to answer one task's questions from a phone,
// without bh serve's token: notifications carry it as /l/<signed link>
// under bh serve's address. It is signed with the web config's LinkKey,
// names one repository, one task and the questions it was made for, and
// expires; bh serve lets it answer once (WebConfig.Used). Rotating the key
// (bh serve --revoke-links) revokes every link made before.
type Link struct {
	ID        string   `json:"i"` // what the used list records
	Repo      string   `json:"r"` // RepoKey of the repository
	Task      string   `json:"t"`
	Questions []string `json:"q"`
	// Via is the channel the link went out on (ntfy, slack, link): the
	// answer is recorded as given by it.
	Via     string `json:"v"`
	Expires int64  `json:"e"` // Unix seconds
}

// LinkTTL is how long a link lives when its questions set no expiry.
const LinkTTL = 24 * time.Hour

// Link channels: the answer's "by".
const (
	ViaLink  = "link"
	ViaNtfy  = "ntfy"
	ViaSlack = "slack"
)

// ErrBadLink is a link that is not bh serve's: mistyped, or signed with a
// key revoked since.
var ErrBadLink = errors.New("this link is not valid: it was revoked (bh serve --revoke-links) or is incomplete")

// NewLinkKey is a fresh key to sign links with.
func NewLinkKey() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// NewLink is a capability for the questions task t waits on, in the
// repository at root; false when bh serve has no address or key yet, or t
// waits on nothing. It expires with the last of its questions (those
// without an expiry of their own count as now+LinkTTL).
func (w WebConfig) NewLink(root string, t *task.Task, now time.Time) (Link, bool) {
	pending := t.Pending()
	if w.URL == "" || w.LinkKey == "" || len(pending) == 0 {
		return Link{}, false
	}
	id := make([]byte, 9)
	rand.Read(id)
	l := Link{ID: base64.RawURLEncoding.EncodeToString(id), Repo: RepoKey(root), Task: t.ID}
	var exp time.Time
	for _, q := range pending {
		l.Questions = append(l.Questions, q.ID)
		e := now.Add(LinkTTL)
		if q.ExpiresAt != nil {
			e = *q.ExpiresAt
		}
		if e.After(exp) {
			exp = e
		}
	}
	l.Expires = exp.Unix()
	return l, true
}

// LinkURL is l's page, signed, as sent through channel via.
func (w WebConfig) LinkURL(l Link, via string) string {
	l.Via = via
	b, _ := json.Marshal(l) // cannot fail: strings and a number
	payload := base64.RawURLEncoding.EncodeToString(b)
	return strings.TrimSuffix(w.URL, "/") + "/l/" + payload + "." + w.linkMAC(payload)
}

// ReadLink checks the signature of token (the part of a link after /l/)
// and returns the link it names; its expiry and use are the caller's.
func (w WebConfig) ReadLink(token string) (Link, error) {
	payload, mac, ok := strings.Cut(token, ".")
	if !ok || w.LinkKey == "" || !hmac.Equal([]byte(mac), []byte(w.linkMAC(payload))) {
		return Link{}, ErrBadLink
	}
	var l Link
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil || json.Unmarshal(b, &l) != nil || l.ID == "" || l.Task == "" {
		return Link{}, ErrBadLink
	}
	return l, nil
}

// ExpiresAt is when l stops working.
func (l Link) ExpiresAt() time.Time { return time.Unix(l.Expires, 0).UTC() }

// Covers says whether l may answer question qid.
func (l Link) Covers(qid string) bool { return slices.Contains(l.Questions, qid) }

// LinkSecret is a value derived from l's key for one purpose (such as the
// CSRF value of l's form): secret to whoever lacks the key.
func (w WebConfig) LinkSecret(l Link, purpose string) string {
	return w.linkMAC(purpose + "\x00" + l.ID)
}

func (w WebConfig) linkMAC(s string) string {
	m := hmac.New(sha256.New, []byte(w.LinkKey))
	m.Write([]byte(s))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// UseLink records l as used, until it expires (older entries are dropped
// then: an expired link is refused anyway).
func (w *WebConfig) UseLink(l Link, now time.Time) {
	maps.DeleteFunc(w.Used, func(_ string, exp int64) bool { return time.Unix(exp, 0).Before(now) })
	if w.Used == nil {
		w.Used = map[string]int64{}
	}
	w.Used[l.ID] = l.Expires
}
