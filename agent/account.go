package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// AccountOf is a stable, non-secret fingerprint of the account env's
// credentials name (never the key itself): a hash of the first key or
// token set, the last setting of each winning; "default" when none is.
func AccountOf(env []string) string {
	set := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			set[k] = v
		}
	}
	for _, k := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "OPENAI_API_KEY"} {
		if v := set[k]; v != "" {
			sum := sha256.Sum256([]byte(v))
			return hex.EncodeToString(sum[:6])
		}
	}
	return "default"
}
