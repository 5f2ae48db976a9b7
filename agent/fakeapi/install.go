package fakeapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// ClaudeVersion is the Claude Code release the tests are written against.
const ClaudeVersion = "2.1.330"

// tool is an npm-installed agent CLI the tests run for real.
type tool struct {
	name, pkg, version string
	envVar             string // overrides the install with a binary of the developer's
	once               sync.Once
	path               string
	err                error
}

var claude = &tool{name: "claude", pkg: "@anthropic-ai/claude-code", version: ClaudeVersion, envVar: "BH_CLAUDE_BIN"}

// Claude returns the absolute path of the real claude binary: $BH_CLAUDE_BIN
// when set, else <module root>/.cache/claude, installed there with npm on
// first use. Failing to install fails the test: CI must run these tests.
// Under -short it skips the test (see Real).
func Claude(t testing.TB) string {
	t.Helper()
	return claude.bin(t)
}

func (tl *tool) bin(t testing.TB) string {
	t.Helper()
	Real(t, tl.name)
	tl.once.Do(func() { tl.path, tl.err = tl.find() })
	if tl.err != nil {
		t.Fatalf("fakeapi: %v", tl.err)
	}
	return tl.path
}

func (tl *tool) find() (string, error) {
	if bin := os.Getenv(tl.envVar); bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			return "", fmt.Errorf("%s: %w", tl.envVar, err)
		}
		return abs, checkVersion(abs, "")
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	cache := filepath.Join(root, ".cache")
	if strings.HasPrefix(root, "/dev/") {
		// A sandbox's /dev is its own (bubblewrap's --dev, codex's own
		// sandbox for its commands): a CLI installed under /dev/shm could
		// not start its commands there. Such a checkout's CLIs go to /tmp
		// (not TMPDIR: a test's own, removed with it).
		cache = "/tmp/bh-test-clis"
	}
	prefix := filepath.Join(cache, tl.name)
	bin := filepath.Join(prefix, "node_modules", ".bin", tl.name)
	if checkVersion(bin, tl.version) == nil {
		return bin, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", cache, err)
	}
	// Test binaries of several packages run at once; one installs, the
	// others wait and then find it installed.
	lock := flock.New(filepath.Join(cache, tl.name+".lock"))
	if err := lock.Lock(); err != nil {
		return "", fmt.Errorf("lock %s: %w", lock.Path(), err)
	}
	defer lock.Unlock()
	if checkVersion(bin, tl.version) == nil {
		return bin, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", prefix, "--no-audit", "--no-fund",
		tl.pkg+"@"+tl.version)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("install %s: npm install: %w\n%s", tl.name, err, out)
	}
	if err := checkVersion(bin, tl.version); err != nil {
		return "", fmt.Errorf("install %s: %w\nnpm output:\n%s", tl.name, err, out)
	}
	return bin, nil
}

// checkVersion runs --version, which fails on the stub npm leaves when the
// native binary's postinstall step did not run. An empty want accepts any
// version, for a binary the developer chose.
func checkVersion(bin, want string) error {
	ctx, cancel := context.WithTimeout(context.Background(), Patience(time.Minute))
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s --version: %w: %s", bin, err, strings.TrimSpace(out.String()))
	}
	if !strings.Contains(out.String(), want) {
		return fmt.Errorf("%s is version %q, want %s", bin, strings.TrimSpace(out.String()), want)
	}
	return nil
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find module root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("find module root: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Env returns the extra environment for running claude against srv: a fresh
// HOME (claude keeps sessions under $HOME/.claude/projects/<cwd>, so a resume
// must reuse the same Env), the fake endpoint and key, and switches that keep
// claude offline, quiet and quick to give up.
func Env(t testing.TB, srv *Server) []string {
	t.Helper()
	home := t.TempDir()
	tmp := filepath.Join(home, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatalf("fakeapi: %v", err)
	}
	return append(homeEnv(home),
		"TMPDIR="+tmp,
		"CLAUDE_CODE_TMPDIR="+tmp,
		"CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"ANTHROPIC_BASE_URL="+srv.URL,
		"ANTHROPIC_API_KEY=test-key",
		// Credentials or providers inherited from the developer's shell would
		// route claude elsewhere; empty values read as unset.
		"ANTHROPIC_AUTH_TOKEN=",
		"CLAUDE_CODE_OAUTH_TOKEN=",
		"CLAUDE_CODE_USE_BEDROCK=",
		"CLAUDE_CODE_USE_VERTEX=",
		"CLAUDE_CODE_USE_FOUNDRY=",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_MAX_RETRIES=0",
	)
}

// homeEnv points HOME and the XDG folders into home.
func homeEnv(home string) []string {
	return []string{"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state")}
}
