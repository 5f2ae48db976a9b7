package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A login a run refreshed goes back to the user's login file, its other
// keys kept; nothing else does: an older, malformed or emptied login, one
// of a kind the user does not log in with, or any other key of the run's.
func TestAdoptLogin(t *testing.T) {
	const claudeUser = `{"claudeAiOauth":{"accessToken":"a1","refreshToken":"r1","expiresAt":1000},"mcpOAuth":{"x":1}}`
	const codexUser = `{"OPENAI_API_KEY":null,"tokens":{"access_token":"a1","refresh_token":"r1"},"last_refresh":"2026-11-01T00:00:00Z"}`
	for _, tt := range []struct {
		name, kind, user, run string
		adopted               bool
		want                  []string // in the user's file afterwards
	}{
		{"claude refreshed", "claude", claudeUser,
			`{"claudeAiOauth":{"accessToken":"a2","refreshToken":"r2","expiresAt":2000},"mcpOAuth":{"evil":1},"hooks":{}}`,
			true, []string{`"r2"`, `"x": 1`}},
		{"claude older", "claude", claudeUser, `{"claudeAiOauth":{"accessToken":"a0","refreshToken":"r0","expiresAt":500}}`,
			false, []string{`"r1"`}},
		{"claude emptied", "claude", claudeUser, `{"claudeAiOauth":{"accessToken":"","refreshToken":"","expiresAt":5000}}`,
			false, []string{`"r1"`}},
		{"claude not json", "claude", claudeUser, `ssh-ed25519 AAAA`, false, []string{`"r1"`}},
		{"user has no oauth", "claude", `{"primaryApiKey":"k"}`,
			`{"claudeAiOauth":{"accessToken":"a2","refreshToken":"r2","expiresAt":2000}}`, false, []string{`"primaryApiKey"`}},
		{"codex refreshed", "codex", codexUser,
			`{"OPENAI_API_KEY":"sk-evil","tokens":{"access_token":"a2","refresh_token":"r2"},"last_refresh":"2026-11-20T00:00:00Z"}`,
			true, []string{`"r2"`, `"2026-11-20T00:00:00Z"`, `"OPENAI_API_KEY": null`}},
		{"codex older", "codex", codexUser,
			`{"tokens":{"access_token":"a0","refresh_token":"r0"},"last_refresh":"2026-10-01T00:00:00Z"}`, false, []string{`"r1"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			user, run := filepath.Join(dir, "user.json"), filepath.Join(dir, "run.json")
			os.WriteFile(user, []byte(tt.user), 0o600)
			os.WriteFile(run, []byte(tt.run), 0o600)
			adopted, err := AdoptLogin(tt.kind, run, user)
			if err != nil || adopted != tt.adopted {
				t.Fatalf("AdoptLogin = %v, %v; want %v", adopted, err, tt.adopted)
			}
			b, _ := os.ReadFile(user)
			if !adopted && string(b) != tt.user {
				t.Errorf("the user's file changed: %s", b)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("the user's file lacks %s:\n%s", w, b)
				}
			}
			if strings.Contains(string(b), "evil") || strings.Contains(string(b), "hooks") {
				t.Errorf("more than the login came back:\n%s", b)
			}
			if fi, _ := os.Stat(user); fi.Mode().Perm() != 0o600 {
				t.Errorf("the user's file is now %v", fi.Mode())
			}
		})
	}
}
