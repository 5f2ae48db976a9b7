package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// PrepareTakeover pre-accepts, in Claude Code's global config
// ($CLAUDE_CONFIG_DIR, else $HOME, /.claude.json: bh gives each task's
// agent a fresh copy of the user's, never the user's own), what an interactive
// claude would ask before a takeover of bh's own worktree root, and
// nothing more:
//   - trust of that one folder (projects[root].hasTrustDialogAccepted): each
//     task has a worktree of its own, so claude would ask on every takeover.
//     claude 2.1 reads the key of the folder it runs in (or a folder above it);
//     the worktree's own key trusts it without trusting the user's checkout.
//   - the API key claude is given (ANTHROPIC_API_KEY, last 20 characters in
//     customApiKeyResponses.approved): it is the environment bh's worker runs
//     claude -p with, where claude uses the key without asking, so approving
//     it grants the takeover nothing the worker's runs lack. A key the user
//     rejected stays rejected.
//
// Onboarding is the user's to do: hasCompletedOnboarding is set only when
// claude recorded a finished onboarding (lastOnboardingVersion) in the same
// file. Otherwise notice says that claude will first set itself up. Every
// other key of the file is kept; it is replaced by an atomic rename.
func (c *Claude) PrepareTakeover(req Request, root string) (notice string, err error) {
	path := req.stateOf("claude").Seed[".claude.json"]
	conf, mode, err := readJSONObject(path)
	if err != nil {
		return "", fmt.Errorf("claude's config: %w", err)
	}
	changed := false
	set := func(obj map[string]json.RawMessage, key string, v any) { // a leaf: changed if it differs
		b, _ := json.Marshal(v)
		if !bytes.Equal(obj[key], b) {
			obj[key], changed = b, true
		}
	}
	put := func(obj map[string]json.RawMessage, key string, v any) { obj[key], _ = json.Marshal(v) }
	projects, entry := object(conf["projects"]), map[string]json.RawMessage{}
	json.Unmarshal(projects[root], &entry)
	set(entry, "hasTrustDialogAccepted", true)
	put(projects, root, entry)
	put(conf, "projects", projects)
	if key := LookupEnv(req.Env, "ANTHROPIC_API_KEY"); key != "" {
		answers := object(conf["customApiKeyResponses"])
		var approved, rejected []string
		json.Unmarshal(answers["approved"], &approved)
		json.Unmarshal(answers["rejected"], &rejected)
		tail := key[max(0, len(key)-20):]
		if !slices.Contains(approved, tail) && !slices.Contains(rejected, tail) {
			set(answers, "approved", append(approved, tail))
			if rejected == nil {
				set(answers, "rejected", []string{})
			}
			put(conf, "customApiKeyResponses", answers)
		}
	}
	if string(conf["hasCompletedOnboarding"]) != "true" {
		if conf["lastOnboardingVersion"] != nil {
			set(conf, "hasCompletedOnboarding", true)
		} else {
			notice = "claude has not been set up in " + path + " yet: it starts with its first-run setup, which needs the network"
		}
	}
	if !changed {
		return notice, nil
	}
	return notice, writeJSONObject(path, conf, mode)
}

// object is a JSON object's members, kept raw; anything else is empty.
func object(raw json.RawMessage) map[string]json.RawMessage {
	obj := map[string]json.RawMessage{}
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return map[string]json.RawMessage{}
	}
	return obj
}

// readJSONObject reads a JSON object file; a missing file is an empty object.
func readJSONObject(path string) (map[string]json.RawMessage, os.FileMode, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]json.RawMessage{}, 0o600, nil
	}
	if err != nil {
		return nil, 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	obj := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, &obj); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
	}
	return obj, fi.Mode().Perm(), nil
}

// writeJSONObject replaces path with obj atomically: a temp file beside it,
// renamed over it, so claude never reads half a file.
func writeJSONObject(path string, obj map[string]json.RawMessage, mode os.FileMode) error {
	b, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".claude.json.bh-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
