package board

import (
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
)

// rowRoom is the room for a row's title and detail, and its detail: in
// brief when the whole one leaves a title too little room.
func (m *boardModel) rowRoom(r boardRow) (int, string) {
	room := m.listWidth() - 2 - ui.Width(r.t.ID) - 2 // the mark, and a space either side of the title
	d := m.detail(r, false)
	if room-ui.Width(d) < 12 { // a title needs some room: the detail in brief
		d = m.detail(r, true)
	}
	return room, d
}

// titles are the rows' titles cut at a word to fit, by task id. Two
// different titles cut to the same words are told apart by their ends:
// "Fix the parser…anchors", "Fix the parser…numbers".
func (m *boardModel) titles() map[string]string {
	out := map[string]string{}
	byCut := map[string]map[string]bool{} // a cut title: the whole titles cut to it
	for _, r := range m.rows {
		room, d := m.rowRoom(r)
		title := ui.Flatten(r.t.Title)
		cut := ui.CutWords(title, room-ui.Width(d))
		if byCut[cut] == nil {
			byCut[cut] = map[string]bool{}
		}
		out[r.t.ID], byCut[cut][title] = cut, true
	}
	for _, r := range m.rows {
		if len(byCut[out[r.t.ID]]) > 1 {
			room, d := m.rowRoom(r)
			out[r.t.ID] = cutApart(ui.Flatten(r.t.Title), room-ui.Width(d))
		}
	}
	return out
}

// cutApart shortens s to n columns keeping its end (up to half of them)
// and as much of its start as fits, cut at words: "Fix the parser…YAML
// anchors".
func cutApart(s string, n int) string {
	words := strings.Fields(s)
	i := len(words)
	for i > 1 && ui.Width(strings.Join(words[i-1:], " ")) <= n/2 {
		i--
	}
	if i == len(words) { // not even its last word fits
		return ui.CutWords(s, n)
	}
	tail := strings.Join(words[i:], " ")
	return ui.CutWords(strings.Join(words[:i], " ")+" "+tail, n-ui.Width(tail)) + tail
}
