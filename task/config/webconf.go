package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/task/internal/atomicfile"
)

// WebConfig is where bh serve listens and the token it requires. bh serve
// writes it on its first start, in the user's config (mode 0600: the token
// is a password); notifications read it to link a question's page.
type WebConfig struct {
	URL   string `json:"url"`
	Token string `json:"token"`
	// LinkKey signs the answer links notifications carry (see Link); Used
	// lists the links that answered already, by ID, with their expiry.
	LinkKey string           `json:"linkKey,omitempty"`
	Used    map[string]int64 `json:"usedLinks,omitempty"`
}

// WebConfigPath is $XDG_CONFIG_HOME/bh/web.json; "" when there is no home.
func WebConfigPath() string {
	if dir := UserConfigDir(); dir != "" {
		return filepath.Join(dir, "web.json")
	}
	return ""
}

// LoadWebConfig reads the web config; a missing file is the zero value.
func LoadWebConfig() (WebConfig, error) {
	var w WebConfig
	err := readUserJSON(WebConfigPath(), &w)
	return w, err
}

// SaveWebConfig writes w, readable by the user alone.
func SaveWebConfig(w WebConfig) error {
	path := WebConfigPath()
	if path == "" {
		return errors.New("no home folder for the web config")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	// Created 0600 first: writeAtomic keeps an existing file's mode.
	if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		f.Close()
	}
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Dir(path), path, append(b, '\n'))
}

// TaskURL is the page of task id of the repository at root, "" when bh
// serve has never run. It carries no token: the browser holds it already.
func (w WebConfig) TaskURL(root, id string) string {
	if w.URL == "" {
		return ""
	}
	return strings.TrimSuffix(w.URL, "/") + "/r/" + url.PathEscape(RepoKey(root)) + "/t/" + url.PathEscape(id)
}

// RepoKey names a repository in URLs: its folder name, made unique by a
// short hash of its absolute path.
func RepoKey(root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Base(root) + "-" + hex.EncodeToString(sum[:3])
}
