package task

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
)

// The registry is the user's list of repositories that use bh, kept in
// $XDG_CONFIG_HOME/bh/repos.json (~/.config/bh): what bh inbox looks at.

// UserConfigDir is bh's folder in the user's config: $XDG_CONFIG_HOME/bh,
// else ~/.config/bh; "" when there is no home.
func UserConfigDir() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "bh")
}

// RegistryPath is where the registry lives; "" when there is no home.
func RegistryPath() string {
	if dir := UserConfigDir(); dir != "" {
		return filepath.Join(dir, "repos.json")
	}
	return ""
}

// Registered lists the repositories in the registry.
func Registered() ([]string, error) {
	path := RegistryPath()
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var reg struct {
		Repos []string `json:"repos"`
	}
	if err := json.Unmarshal(b, &reg); err != nil {
		return nil, err
	}
	return reg.Repos, nil
}

// Register adds root to the registry if it is not there. It is best
// effort: a read-only or missing home costs the command nothing.
func Register(root string) {
	repos, err := Registered()
	if err != nil || slices.Contains(repos, root) {
		return
	}
	path := RegistryPath()
	if path == "" || os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	b, err := json.MarshalIndent(struct {
		Repos []string `json:"repos"`
	}{append(repos, root)}, "", "  ")
	if err == nil {
		writeAtomic(filepath.Dir(path), path, append(b, '\n'))
	}
}
