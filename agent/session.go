package agent

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/google/uuid"
)

// SessionFile is where Claude Code keeps the transcript of req's session:
// $CLAUDE_CONFIG_DIR (else $HOME/.claude) /projects/<the working directory
// with every character but letters and digits turned into '-'>/<session>.jsonl.
func (c *Claude) SessionFile(req Request) string {
	return filepath.Join(req.stateOf("claude").Dir, "projects", projectSlug(req.Dir), req.SessionID+".jsonl")
}

// projectSlug names the folder Claude Code keeps a working directory's
// sessions in, as claude does: every UTF-16 unit but ASCII letters and
// digits becomes '-', and a name over 200 units is cut there and followed
// by '-' and its hash (a Java-style string hash, absolute, in base 36).
func projectSlug(dir string) string {
	units := utf16.Encode([]rune(dir))
	var b strings.Builder
	for _, u := range units {
		if u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9' {
			b.WriteByte(byte(u))
		} else {
			b.WriteByte('-')
		}
	}
	slug := b.String()
	if len(slug) <= maxSlug {
		return slug
	}
	var h int32
	for _, u := range units {
		h = h<<5 - h + int32(u)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return slug[:maxSlug] + "-" + strconv.FormatInt(abs, 36)
}

// maxSlug is where claude cuts a long project folder name.
const maxSlug = 200

// SessionFile is where codex keeps req's thread (req.SessionID):
// $CODEX_HOME (else $HOME/.codex) /sessions/<y>/<m>/<d>/rollout-<time>-<thread>.jsonl.
// A thread codex no longer has is restored under the date its id (a UUIDv7)
// carries: codex finds a rollout anywhere under sessions/ unless its state
// database remembers the file elsewhere.
func (c *Codex) SessionFile(req Request) string {
	sessions := filepath.Join(req.stateOf("codex").Dir, "sessions")
	if found, _ := filepath.Glob(filepath.Join(sessions, "*", "*", "*", "rollout-*-"+req.SessionID+".jsonl")); len(found) > 0 {
		return found[0]
	}
	at := time.Unix(0, 0).UTC()
	if id, err := uuid.Parse(req.SessionID); err == nil && id.Version() == 7 {
		at = time.Unix(id.Time().UnixTime()).UTC()
	}
	return filepath.Join(sessions, at.Format("2006/01/02"), "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+req.SessionID+".jsonl")
}
