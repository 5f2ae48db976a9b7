package agent

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/ask"
)

// TestCommandOutputCapped runs an agent that prints more than
// MaxOutputBytes on both streams: the worker keeps the head and the tail,
// and still finds the result at the end.
func TestCommandOutputCapped(t *testing.T) {
	const mib = 1 << 20
	agent := script(t, fmt.Sprintf(`head -c %d /dev/zero | tr '\0' x
head -c %d /dev/zero | tr '\0' y >&2
echo
echo '{"status":"completed","summary":"loud"}'
`, 3*MaxOutputBytes, 2*MaxOutputBytes))
	out, err := NewCommand(CommandConfig{Argv: []string{agent}}).Run(context.Background(), Request{Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if out.Result.Summary != "loud" {
		t.Errorf("result = %+v", out.Result)
	}
	for _, tt := range []struct {
		name      string
		got       []byte
		printed   int
		max, tail int
	}{
		{"stdout", out.Raw, 3*MaxOutputBytes + 1 + len(`{"status":"completed","summary":"loud"}`) + 1,
			MaxOutputBytes, OutputTailBytes},
		{"stderr", out.Stderr, 2 * MaxOutputBytes, MaxStderrBytes, StderrTailBytes},
	} {
		note := fmt.Sprintf("\n… (bh dropped %d bytes of output here)\n", tt.printed-tt.max)
		head, tail, ok := bytes.Cut(tt.got, []byte(note))
		if !ok || len(head) != tt.max-tt.tail || len(tail) != tt.tail {
			t.Errorf("%s: kept %d bytes (%d MiB printed), want head, %q and tail", tt.name, len(tt.got),
				tt.printed/mib, note)
		}
		if tt.name == "stdout" && !strings.HasSuffix(string(tail), "\"loud\"}\n") {
			t.Errorf("stdout tail ends %q", tail[len(tail)-50:])
		}
	}
}

// TestCommandLargeValidResult: a valid result of 5 MB (a long details
// field) is read whole and capped field by field, not refused.
func TestCommandLargeValidResult(t *testing.T) {
	agent := script(t, `printf '{"status":"completed","summary":"big","details":"'
head -c 5000000 /dev/zero | tr '\0' d
printf '"}\n'
`)
	out, err := NewCommand(CommandConfig{Argv: []string{agent}}).Run(context.Background(), Request{Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if out.Result.Summary != "big" || !strings.HasPrefix(out.Result.Details, "ddd") ||
		len(out.Result.Details) > ask.MaxTextBytes || !strings.Contains(out.Result.Details, "cut: ") {
		t.Errorf("result = %q, details %d bytes", out.Result.Summary, len(out.Result.Details))
	}
}
