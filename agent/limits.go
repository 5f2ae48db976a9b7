package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// claudeLimitInfo is claude's rate_limit_info: on a rate_limit_event, and
// in api_error_params of the assistant message that reports a refusal.
type claudeLimitInfo struct {
	Status         string `json:"status"`
	ResetsAt       int64  `json:"resetsAt"`
	RateLimitType  string `json:"rateLimitType"`
	UnifiedWindows map[string]struct {
		Status   string `json:"status"`
		ResetsAt int64  `json:"resetsAt"`
	} `json:"unifiedWindows"`
}

// limit is the Limit info reports. claude 2.1.330 reports a window past
// its warning threshold as status "allowed" with the window's own status
// allowed_warning in unifiedWindows: the worst window's status wins.
func (info claudeLimitInfo) limit() Limit {
	l := Limit{Status: info.Status, Window: info.RateLimitType, ResetsAt: epoch(info.ResetsAt)}
	for name, w := range info.UnifiedWindows {
		if limitRank[w.Status] > limitRank[l.Status] {
			l.Status, l.Window, l.ResetsAt = w.Status, name, epoch(w.ResetsAt)
		}
	}
	return l
}

var limitRank = map[string]int{LimitAllowed: 1, LimitWarning: 2, LimitRejected: 3}

// epoch is Unix seconds as a time, zero for none.
func epoch(sec int64) time.Time {
	if sec <= 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0)
}

// The patterns compile on first use: most bh commands never read an
// agent's limit, and compiled at start they were most of agent's init.
var (
	// claude before 2.1: "Claude AI usage limit reached|<epoch>".
	limitEpoch = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)usage limit reached\|(\d{9,})`) })
	// claude 2.1.330: "You've hit your 5-hour limit · resets 10:05am (UTC)";
	// codex 0.169: "You’ve hit your usage limit. … or try again at 10:06 AM.",
	// and when the reset falls on another day (its local one) "… try again
	// at Nov 29th, 2026 12:28 AM." (chrono's "%b %-d<suffix>, %Y %-I:%M %p").
	limitClock = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:resets|try again at) (?:([a-z]{3}) (\d{1,2})(?:st|nd|rd|th)?, (\d{4}) )?` +
			`(\d{1,2})(?::(\d\d))? ?([ap]m)(?: \(([^)]+)\))?`)
	})
	limitWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)usage limit reached|hit your (?:[\w-]+ )?(?:usage )?limit`)
	})
)

// limitOfText reads a usage-limit message of claude's or codex's (nil when
// msg is none): rejected, with the reset it names, a clock time taken as
// its next occurrence after now (in the zone it names, else the local one).
func limitOfText(msg string, now time.Time) *Limit {
	if !limitWords().MatchString(msg) {
		return nil
	}
	l := &Limit{Status: LimitRejected, Said: msg}
	switch m := strings.ToLower(msg); {
	case strings.Contains(m, "5-hour") || strings.Contains(m, "five-hour"):
		l.Window = "five_hour"
	case strings.Contains(m, "weekly") || strings.Contains(m, "7-day"):
		l.Window = "seven_day"
	}
	if m := limitEpoch().FindStringSubmatch(msg); m != nil {
		sec, _ := strconv.ParseInt(m[1], 10, 64)
		l.ResetsAt = epoch(sec)
	} else if m := limitClock().FindStringSubmatch(msg); m != nil {
		l.ResetsAt = resetOf(m[1:], now)
	}
	return l
}

// resetOf is the reset limitClock's groups (month, day, year, h, min,
// am/pm, zone) name, in zone (the local zone when empty or unknown): on
// the date they name, else the first time after now that a clock shows
// h:min am/pm. A date that cannot be read is no reset (zero).
func resetOf(g []string, now time.Time) time.Time {
	month, day, year, h, min, ampm, zone := g[0], g[1], g[2], g[3], g[4], g[5], g[6]
	hour, _ := strconv.Atoi(h)
	minute, _ := strconv.Atoi(min)
	hour %= 12
	if strings.EqualFold(ampm, "pm") {
		hour += 12
	}
	loc := time.Local
	if l, err := time.LoadLocation(zone); zone != "" && err == nil {
		loc = l
	}
	if month != "" {
		date, err := time.ParseInLocation("Jan 2 2006", month+" "+day+" "+year, loc)
		if err != nil {
			return time.Time{}
		}
		return time.Date(date.Year(), date.Month(), date.Day(), hour, minute, 0, 0, loc)
	}
	n := now.In(loc)
	t := time.Date(n.Year(), n.Month(), n.Day(), hour, minute, 0, 0, loc)
	if !t.After(now) {
		t = t.AddDate(0, 0, 1)
	}
	return t
}

// AccountOf is a stable, non-secret fingerprint of the account the agent
// kind ("claude" or "codex") runs under with env (which overrides the
// process's own environment): the first 12 hex digits of the SHA-256 of
// the kind, the API's base URL and the credential (claude:
// ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN, else
// the login's account UUID in claude's .claude.json; codex: OPENAI_API_KEY
// or CODEX_API_KEY, else the login's account id in $CODEX_HOME/auth.json).
// "" when no credential is found: the account is unknown.
func AccountOf(env []string, kind string) string {
	var base, id string
	switch kind {
	case "claude":
		base = LookupEnv(env, "ANTHROPIC_BASE_URL")
		id = firstSet(env, "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN")
		if id == "" {
			id = jsonString(claudeConfigFile(env), "oauthAccount", "accountUuid")
		}
	case "codex":
		id = firstSet(env, "OPENAI_API_KEY", "CODEX_API_KEY")
		if id == "" {
			home := LookupEnv(env, "CODEX_HOME")
			if home == "" {
				home = filepath.Join(LookupEnv(env, "HOME"), ".codex")
			}
			id = jsonString(filepath.Join(home, "auth.json"), "tokens", "account_id")
		}
	}
	if id == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(kind + "\x00" + base + "\x00" + id))
	return hex.EncodeToString(sum[:])[:12]
}

func firstSet(env []string, keys ...string) string {
	for _, k := range keys {
		if v := LookupEnv(env, k); v != "" {
			return v
		}
	}
	return ""
}

// claudeConfigFile is claude's global config: $CLAUDE_CONFIG_DIR/.claude.json, else $HOME/.claude.json.
func claudeConfigFile(env []string) string {
	if dir := LookupEnv(env, "CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, ".claude.json")
	}
	return filepath.Join(LookupEnv(env, "HOME"), ".claude.json")
}

// jsonString is the string at obj.key in the JSON file path, "" if none.
func jsonString(path, obj, key string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var f map[string]map[string]any
	json.Unmarshal(b, &f)
	s, _ := f[obj][key].(string)
	return s
}
