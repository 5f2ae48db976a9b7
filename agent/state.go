package agent

import (
	"encoding/json"
	"path/filepath"
	"time"
)

// State is where an agent CLI keeps its settings, login and sessions, and
// what bh seeds a run's own copy of it with (see worker/jail/agentstate.go).
type State struct {
	Env string // the variable that moves it: CLAUDE_CONFIG_DIR, CODEX_HOME
	Dir string // the folder it keeps its state in
	// Seed are the user's files a run's state starts with, by their name
	// in the run's folder: settings, login, instructions, onboarding.
	Seed map[string]string
	// User are the user's own state folders and files, which no run sees.
	User []string
	// Login is the file, among Seed, that holds an OAuth login, whose
	// refresh token the server rotates on use (see AdoptLogin).
	Login string
}

// StateOf is the agent state of kind ("claude", "codex") as the user has
// it, read from getenv (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME); ok is false
// for an agent that keeps none (a command agent).
//
// Claude Code with CLAUDE_CONFIG_DIR keeps everything under it (measured
// on 2.1.330: .claude.json, .credentials.json, settings.json, projects/),
// without it in ~/.claude and ~/.claude.json. Codex keeps config.toml,
// auth.json and sessions/ in CODEX_HOME, else ~/.codex.
func StateOf(kind string, getenv func(string) string) (st State, ok bool) {
	home := getenv("HOME")
	switch kind {
	case "", "claude":
		dir, conf := getenv("CLAUDE_CONFIG_DIR"), ""
		if dir == "" {
			dir, conf = filepath.Join(home, ".claude"), filepath.Join(home, ".claude.json")
		} else {
			conf = filepath.Join(dir, ".claude.json")
		}
		return State{Env: "CLAUDE_CONFIG_DIR", Dir: dir, Login: ".credentials.json", User: []string{dir, conf},
			Seed: map[string]string{
				".claude.json":      conf, // onboarding, trusted folders, approved API keys
				".credentials.json": filepath.Join(dir, ".credentials.json"),
				"settings.json":     filepath.Join(dir, "settings.json"),
				"CLAUDE.md":         filepath.Join(dir, "CLAUDE.md"),
			}}, true
	case "codex":
		dir := getenv("CODEX_HOME")
		if dir == "" {
			dir = filepath.Join(home, ".codex")
		}
		return State{Env: "CODEX_HOME", Dir: dir, Login: "auth.json", User: []string{dir},
			Seed: map[string]string{
				"config.toml": filepath.Join(dir, "config.toml"),
				"auth.json":   filepath.Join(dir, "auth.json"),
				"AGENTS.md":   filepath.Join(dir, "AGENTS.md"),
			}}, true
	}
	return State{}, false
}

// stateOf is the agent state of kind as req's run sees it: req.Env wins
// over the inherited environment, as it does for the run.
func (req Request) stateOf(kind string) State {
	st, _ := StateOf(kind, func(k string) string { return LookupEnv(req.Env, k) })
	return st
}

// AdoptLogin carries a login that a run refreshed back into the user's
// login file, the one thing that flows back from a run's state: the
// providers' refresh tokens are single-use, so a run that refreshed its
// copy has spent the user's, who would be logged out otherwise.
// Only the login object moves (claude's claudeAiOauth, codex's tokens and
// last_refresh), only into a file that already holds an OAuth login of
// that kind, only when every token is a non-empty string and the run's is
// newer, and every other key of the user's file stays. The run's agent
// could still put a login of another account there: a token is data to
// the CLI, never a program or an instruction.
func AdoptLogin(kind, run, user string) (bool, error) {
	theirs, _, err := readJSONObject(run)
	if err != nil || len(theirs) == 0 {
		return false, nil // none, or not a login: nothing to adopt
	}
	mine, mode, err := readJSONObject(user)
	if err != nil || len(mine) == 0 {
		return false, err
	}
	keys, newer := loginKeys(kind, mine, theirs)
	if !newer {
		return false, nil
	}
	for _, k := range keys {
		mine[k] = theirs[k]
	}
	return true, writeJSONObject(user, mine, mode)
}

// loginKeys are the keys of a login file AdoptLogin moves, and whether
// theirs holds a well-formed login newer than mine.
func loginKeys(kind string, mine, theirs map[string]json.RawMessage) ([]string, bool) {
	switch kind {
	case "", "claude":
		type oauth struct {
			AccessToken  *string  `json:"accessToken"`
			RefreshToken *string  `json:"refreshToken"`
			ExpiresAt    *float64 `json:"expiresAt"`
		}
		var a, b oauth
		if json.Unmarshal(mine["claudeAiOauth"], &a) != nil || json.Unmarshal(theirs["claudeAiOauth"], &b) != nil ||
			a.ExpiresAt == nil || !filled(b.AccessToken, b.RefreshToken) || b.ExpiresAt == nil {
			return nil, false
		}
		return []string{"claudeAiOauth"}, *b.ExpiresAt > *a.ExpiresAt
	case "codex":
		type tokens struct {
			AccessToken  *string `json:"access_token"`
			RefreshToken *string `json:"refresh_token"`
		}
		var a, b tokens
		var at, bt time.Time
		if json.Unmarshal(mine["tokens"], &a) != nil || json.Unmarshal(theirs["tokens"], &b) != nil ||
			!filled(a.RefreshToken) || !filled(b.AccessToken, b.RefreshToken) ||
			json.Unmarshal(mine["last_refresh"], &at) != nil || json.Unmarshal(theirs["last_refresh"], &bt) != nil {
			return nil, false
		}
		return []string{"tokens", "last_refresh"}, bt.After(at)
	}
	return nil, false
}

func filled(ss ...*string) bool {
	for _, s := range ss {
		if s == nil || *s == "" {
			return false
		}
	}
	return true
}

// RememberOnboarding is what a run's Claude Code recorded of its finished
// first-run setup (hasCompletedOnboarding, lastOnboardingVersion, theme),
// read from its .claude.json in dir; nil when it has none. bh keeps it
// for the next takeover's fresh state, which would otherwise ask again.
func RememberOnboarding(dir string) map[string]json.RawMessage {
	conf, _, err := readJSONObject(filepath.Join(dir, ".claude.json"))
	if err != nil || string(conf["hasCompletedOnboarding"]) != "true" {
		return nil
	}
	var v string
	if json.Unmarshal(conf["lastOnboardingVersion"], &v) != nil || v == "" {
		return nil
	}
	keep := map[string]json.RawMessage{"hasCompletedOnboarding": conf["hasCompletedOnboarding"],
		"lastOnboardingVersion": conf["lastOnboardingVersion"]}
	var theme string
	if json.Unmarshal(conf["theme"], &theme) == nil && theme != "" && len(theme) < 40 {
		keep["theme"] = conf["theme"]
	}
	return keep
}

// AddOnboarding sets, in dir's .claude.json, the onboarding keys of
// remembered that the file lacks.
func AddOnboarding(dir string, remembered map[string]json.RawMessage) error {
	if len(remembered) == 0 {
		return nil
	}
	path := filepath.Join(dir, ".claude.json")
	conf, mode, err := readJSONObject(path)
	if err != nil {
		return err
	}
	changed := false
	for k, v := range remembered {
		if _, ok := conf[k]; !ok {
			conf[k], changed = v, true
		}
	}
	if !changed {
		return nil
	}
	return writeJSONObject(path, conf, mode)
}
