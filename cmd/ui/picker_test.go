package ui

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charmbracelet/huh"
)

// The real picker, in huh's accessible mode: numbered prompts read line by
// line from input that arrives one byte at a time or all at once.
func TestHuhPickerAccessible(t *testing.T) {
	opts := []PickOpt{{"GitHub — the team uses it", "GitHub"}, {"Google", "Google"}, {"Other…", "\x00other"}}
	for name, wrap := range map[string]func(string) *IOStreams{
		"whole": func(in string) *IOStreams {
			return &IOStreams{In: strings.NewReader(in), ErrOut: new(strings.Builder), Accessible: true}
		},
		"bytewise": func(in string) *IOStreams {
			return &IOStreams{In: iotest.OneByteReader(strings.NewReader(in)), ErrOut: new(strings.Builder), Accessible: true}
		},
	} {
		t.Run(name, func(t *testing.T) {
			io := wrap("2\n\n1\n3\n0\ny\nmy words\n")
			p := NewHuhPicker(io)
			if v, err := p.Select("Which?", "", opts, "nope"); err != nil || v != "Google" {
				t.Fatalf("Select = %q, %v", v, err)
			}
			// an empty line takes the default, which is an option
			if v, err := p.Select("Which?", "", opts, "Other…"); err != nil || v != "GitHub" {
				t.Fatalf("Select with default = %q, %v", v, err)
			}
			if v, err := p.MultiSelect("Which?", "", opts); err != nil || !reflect.DeepEqual(v, []string{"GitHub", "\x00other"}) {
				t.Fatalf("MultiSelect = %q, %v", v, err)
			}
			if v, err := p.Confirm("Ship?", "", false); err != nil || !v {
				t.Fatalf("Confirm = %v, %v", v, err)
			}
			if v, err := p.Input("Your answer", ""); err != nil || v != "my words" {
				t.Fatalf("Input = %q, %v", v, err)
			}
			// the input has ended: no default passes for an answer
			if v, err := p.Confirm("Ship?", "", true); !errors.Is(err, ErrAborted) {
				t.Fatalf("Confirm at end of input = %v, %v", v, err)
			}
			if out := io.ErrOut.(*strings.Builder).String(); !strings.Contains(out, "1. GitHub — the team uses it") {
				t.Errorf("prompts:\n%s", out)
			}
		})
	}
}

// What the agent wrote reaches the terminal cleaned, as all output does;
// the value picked stays the option's own.
func TestFieldPickerCleansAgentText(t *testing.T) {
	var views []string
	p := FieldPicker(func(f huh.Field) error {
		views = append(views, f.View())
		return nil
	})
	v, _ := p.Select("Pick \x1b]0;pwned\x07one", "why \x1b[2J", []PickOpt{{"left\x1b[H", "left\x1b[H"}}, "")
	p.Input("Your \x1b[2Jwords", "")
	if v != "left\x1b[H" {
		t.Errorf("picked %q", v)
	}
	for i, want := range []string{"Pick ]0;pwnedone", "Your words"} {
		view := views[i]
		if !strings.Contains(view, want) || strings.ContainsAny(view, "\x07") ||
			strings.Contains(view, "\x1b]") || strings.Contains(view, "\x1b[2J") || strings.Contains(view, "\x1b[H") {
			t.Errorf("field %d shows %q", i, view)
		}
	}
}
