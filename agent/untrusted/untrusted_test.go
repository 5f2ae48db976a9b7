package untrusted

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOnlyRegularFilesUnderTheCapAreRead(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("key"), 0o600)
	for name, tt := range map[string]struct {
		plant func(p string) error
		want  string // in the *Error; "" reads "ok"
	}{
		"a file":      {func(p string) error { return os.WriteFile(p, []byte("ok"), 0o600) }, ""},
		"a link":      {func(p string) error { return os.Symlink(secret, p) }, "symbolic link"},
		"a dead link": {func(p string) error { return os.Symlink(filepath.Join(dir, "none"), p) }, "symbolic link"},
		"a FIFO":      {func(p string) error { return syscall.Mkfifo(p, 0o600) }, "not a regular file"},
		"a folder":    {func(p string) error { return os.Mkdir(p, 0o755) }, "not a regular file"},
		"too large":   {func(p string) error { return os.WriteFile(p, []byte("12345"), 0o600) }, "larger than 4 bytes"},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			if err := tt.plant(p); err != nil {
				t.Fatal(err)
			}
			b, err := ReadFile(p, 4)
			var bad *Error
			switch {
			case tt.want == "" && (err != nil || string(b) != "ok"):
				t.Fatalf("read %q, %v", b, err)
			case tt.want != "" && (!errors.As(err, &bad) || !strings.Contains(err.Error(), tt.want) || b != nil):
				t.Fatalf("read %q, %v; want an Error saying %q", b, err, tt.want)
			}
		})
	}
}

// A file that grows past the cap while it is streamed stops there.
func TestReaderStopsAtTheCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("1234"), 0o600)
	r, err := OpenReader(p, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("5678")
	f.Close()
	b, err := io.ReadAll(r)
	var bad *Error
	if !errors.As(err, &bad) || len(b) > 4 {
		t.Fatalf("read %q, %v", b, err)
	}
}
