package ui

import (
	"errors"
	"io"

	"github.com/bh-tracker/bh/cmd/quietterm"

	"github.com/charmbracelet/huh"
)

// Picker asks the human on a terminal. The real one draws huh's widgets;
// tests script their own, so that what bh does with the answers is tested
// without a terminal.
type Picker interface {
	// Confirm asks yes or no; def is the answer offered first.
	Confirm(title, desc string, def bool) (bool, error)
	// Select picks the value of one option; def is the one offered first.
	Select(title, desc string, opts []PickOpt, def string) (string, error)
	// MultiSelect picks the values of any number of options.
	MultiSelect(title, desc string, opts []PickOpt) ([]string, error)
	// Input reads one line of text, which may be empty.
	Input(title, desc string) (string, error)
	// Edit reads one line of text that starts as value (a question's
	// default, which enter takes as it is).
	Edit(title, desc, value string) (string, error)
}

// PickOpt is one entry of a picker: what is shown, and what it stands for.
type PickOpt struct{ Label, Value string }

// ErrAborted is the human leaving the picker (Ctrl-C, Esc).
var ErrAborted = errors.New("cancelled")

type huhPicker struct {
	in         io.Reader
	lines      *lineReader // in, for accessible prompts
	out        io.Writer
	accessible bool
}

// NewHuhPicker draws on stderr, so that stdout stays clean for --json.
func NewHuhPicker(s *IOStreams) Picker {
	p := &huhPicker{in: s.In, out: s.Terminal(), accessible: s.Accessible}
	if s.Accessible {
		p.lines = &lineReader{r: s.In}
		p.in = p.lines
	}
	return FieldPicker(p.run)
}

func (p *huhPicker) run(f huh.Field) (err error) {
	// huh's accessible prompts panic on input that ends after a bad entry:
	// that is the human leaving, not a reason to lose the answers so far.
	defer func() {
		if recover() != nil {
			err = ErrAborted
		}
	}()
	if !p.accessible {
		quietterm.AskBackground() // the one moment bh may query the terminal
	}
	err = huh.NewForm(huh.NewGroup(f)).WithInput(p.in).WithOutput(p.out).
		WithAccessible(p.accessible).WithShowHelp(true).Run()
	// Accessible prompts take the end of input for the default answer:
	// never let that pass for a choice the human made.
	if errors.Is(err, huh.ErrUserAborted) || p.lines != nil && p.lines.eof {
		return ErrAborted
	}
	return err
}

// FieldPicker asks each question as one huh field, shown by the function:
// a form of its own (bh respond), or inside bh board. Titles, descriptions
// and labels are the agent's text, cleaned as safeWriter cleans output:
// huh draws them on the raw terminal.
type FieldPicker func(huh.Field) error

func (ask FieldPicker) Confirm(title, desc string, def bool) (bool, error) {
	v := def
	err := ask(huh.NewConfirm().Title(Clean(title)).Description(Clean(desc)).Affirmative("Yes").Negative("No").Value(&v))
	return v, err
}

func (ask FieldPicker) Select(title, desc string, opts []PickOpt, def string) (string, error) {
	v := opts[0].Value // a default that is no option would make huh's accessible prompt panic
	for _, o := range opts {
		if o.Value == def {
			v = def
		}
	}
	err := ask(huh.NewSelect[string]().Title(Clean(title)).Description(Clean(desc)).Options(huhOptions(opts)...).Value(&v))
	return v, err
}

func (ask FieldPicker) MultiSelect(title, desc string, opts []PickOpt) ([]string, error) {
	var v []string
	err := ask(huh.NewMultiSelect[string]().Title(Clean(title)).Description(Clean(desc)).Options(huhOptions(opts)...).Value(&v))
	return v, err
}

func (ask FieldPicker) Input(title, desc string) (string, error) { return ask.Edit(title, desc, "") }

func (ask FieldPicker) Edit(title, desc, value string) (string, error) {
	v := value
	err := ask(huh.NewInput().Title(Clean(title)).Description(Clean(desc)).Value(&v))
	return v, err
}

func huhOptions(opts []PickOpt) []huh.Option[string] {
	out := make([]huh.Option[string], len(opts))
	for i, o := range opts {
		out[i] = huh.NewOption(Clean(o.Label), o.Value)
	}
	return out
}

// lineReader hands out at most one line per Read. huh's accessible prompts
// each wrap the input in a scanner of their own, which would otherwise read
// ahead into the answers meant for the next prompt.
// It notes the end of input, which the prompts do not report.
type lineReader struct {
	r   io.Reader
	eof bool
}

func (l *lineReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := l.r.Read(p[n : n+1])
		n += m
		if err != nil {
			l.eof = l.eof || errors.Is(err, io.EOF)
			return n, err
		}
		if m == 1 && p[n-1] == '\n' {
			break
		}
	}
	return n, nil
}
