package board

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/charmbracelet/huh"
)

// boardPicker asks as ui.FieldPicker does, but takes the question's words out
// of the field: the pane shows them above it, scrolled to fit, so that the
// options stay on screen however long the question is.
type boardPicker struct{ d *boardDialog }

// ask sends each field to the board with its words, and waits for its answer.
func (p boardPicker) ask(title, desc string) ui.FieldPicker {
	return func(f huh.Field) error {
		r := boardField{field: f, title: title, desc: desc, reply: make(chan error, 1)}
		p.d.reqs <- r
		return <-r.reply
	}
}

func (p boardPicker) Confirm(title, desc string, def bool) (bool, error) {
	return p.ask(title, desc).Confirm("", "", def)
}

// Select asks as ui.FieldPicker does; an approval's choice of yes, no
// or skip (a task that asks several questions) takes y, n and s as well,
// as a lone approval's yes or no does.
func (p boardPicker) Select(title, desc string, opts []ui.PickOpt, def string) (string, error) {
	keys := approvalKeys(opts)
	if keys == nil {
		return p.ask(title, desc).Select("", "", opts, def)
	}
	v := opts[0].Value
	options := make([]huh.Option[string], len(opts))
	for i, o := range opts {
		options[i] = huh.NewOption(ui.Clean(o.Label), o.Value)
		if o.Value == def {
			v = def
		}
	}
	r := boardField{huh.NewSelect[string]().Options(options...).Value(&v), title, desc, make(chan error, 1), keys,
		func(to string) { v = to }}
	p.d.reqs <- r
	err := <-r.reply // v is set, by the field or by set, before the reply
	return v, err
}

// approvalKeys are the keys of an approval's options as bh respond's
// askApproval offers them (y yes, n no, s skip for now), by key; nil when
// opts are no approval's.
func approvalKeys(opts []ui.PickOpt) map[string]string {
	keys := map[string]string{}
	for _, o := range opts {
		switch {
		case o.Value == "yes" && o.Label == "Yes", o.Value == "no" && o.Label == "No", o.Label == "Skip for now":
			keys[strings.ToLower(o.Label[:1])] = o.Value
		default:
			return nil
		}
	}
	if keys["y"] == "" || keys["n"] == "" {
		return nil
	}
	return keys
}

func (p boardPicker) MultiSelect(title, desc string, opts []ui.PickOpt) ([]string, error) {
	return p.ask(title, desc).MultiSelect("", "", opts)
}

func (p boardPicker) Input(title, desc string) (string, error) {
	return p.ask(title, desc).Input("", "")
}

func (p boardPicker) Edit(title, desc, value string) (string, error) {
	return p.ask(title, desc).Edit("", "", value)
}

// dialogPane is the question being asked: its words, scrolled (pgup/pgdn)
// to leave the field below them, with its options and keys, on screen.
func (m *boardModel) dialogPane(io *ui.IOStreams) string {
	d := m.dlg
	field := d.form.View()
	var words []string
	if d.cur.title != "" {
		for _, l := range strings.Split(ui.Wrap(ui.Clean(d.cur.title), io.Cols), "\n") {
			words = append(words, io.Bold(l))
		}
	}
	if d.cur.desc != "" {
		words = append(words, strings.Split(ui.Wrap(ui.Clean(d.cur.desc), io.Cols), "\n")...)
	}
	// The column's lines, less the task's line, a blank and the field.
	room := max(m.height-3-2-strings.Count(field, "\n")-1-1, 2)
	if len(words) > room {
		shown := room - 1 // a line for the hint
		d.scroll = min(max(d.scroll, 0), len(words)-shown)
		hint := fmt.Sprintf("…more: lines %d–%d of %d, pgup/pgdn scroll", d.scroll+1, d.scroll+shown, len(words))
		words = append(words[d.scroll:d.scroll+shown:d.scroll+shown], io.Faint(hint))
	}
	return strings.Join(words, "\n") + "\n\n" + field
}
