package fakeapi

import (
	"os"
	"path/filepath"
	"testing"
)

// A test that writes into the user's own bh config (the registry) fails
// the whole test binary; one that keeps to its home passes.
func TestIsolatedFailsATestThatWritesTheUsersConfig(t *testing.T) {
	for _, tt := range []struct {
		name  string
		write func(real string)
		want  int
	}{
		{"own home", func(string) { os.WriteFile(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "x"), nil, 0o644) }, 0},
		{"the user's registry", func(real string) {
			os.MkdirAll(filepath.Join(real, "bh"), 0o755)
			os.WriteFile(filepath.Join(real, "bh", "repos.json"), []byte("[]"), 0o644)
		}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			real := t.TempDir()
			for _, v := range []string{"HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
				t.Setenv(v, os.Getenv(v)) // restored after Isolated moves them
			}
			t.Setenv("XDG_CONFIG_HOME", real)
			got := Isolated(func() int {
				if os.Getenv("XDG_CONFIG_HOME") == real || os.Getenv("HOME") == "" {
					t.Errorf("the tests run with the user's config dir")
				}
				tt.write(real)
				return 0
			})
			if got != tt.want {
				t.Errorf("exit code %d, want %d", got, tt.want)
			}
		})
	}
}
