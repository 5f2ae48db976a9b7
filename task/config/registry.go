package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/bh-tracker/bh/task/internal/atomicfile"
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
	var reg registry
	err := readUserJSON(RegistryPath(), &reg)
	return reg.Repos, err
}

// readUserJSON decodes a file of the user's config into v; no home or no
// file leaves v as it is.
func readUserJSON(path string, v any) error {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Register adds root to the registry if it is not there. It is best
// effort: a read-only or missing home costs the command nothing.
func Register(root string) {
	repos, err := Registered()
	if err != nil || slices.Contains(repos, root) {
		return
	}
	if path := RegistryPath(); path != "" && os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		saveRegistry(append(repos, root))
	}
}

// Gone lists the registered repositories that no longer use bh here:
// their folder, or its .bh, is gone (a scratch clone removed, say).
func Gone() ([]string, error) {
	repos, err := Registered()
	var gone []string
	for _, r := range repos {
		if _, err := os.Stat(filepath.Join(r, ".bh")); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, r)
		}
	}
	return gone, err
}

// Unregister drops roots from the registry.
func Unregister(roots []string) error {
	repos, err := Registered()
	if err != nil {
		return err
	}
	return saveRegistry(slices.DeleteFunc(repos, func(r string) bool { return slices.Contains(roots, r) }))
}

// registry is the registry file's shape.
type registry struct {
	Repos []string `json:"repos"`
}

func saveRegistry(repos []string) error {
	b, err := json.MarshalIndent(registry{repos}, "", "  ")
	if err != nil {
		return err
	}
	path := RegistryPath()
	return atomicfile.Write(filepath.Dir(path), path, append(b, '\n'))
}
