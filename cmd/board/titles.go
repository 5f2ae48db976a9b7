package board

import (
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
)

// cutTitles cuts each title at a word to fit its room. Two different
// titles cut to the same words are told apart by their ends: "Fix the
// parser…anchors", "Fix the parser…numbers".
func cutTitles(titles []string, rooms []int) []string {
	out := make([]string, len(titles))
	byCut := map[string]map[string]bool{} // a cut title: the whole titles cut to it
	for i, title := range titles {
		out[i] = ui.CutWords(title, rooms[i])
		if byCut[out[i]] == nil {
			byCut[out[i]] = map[string]bool{}
		}
		byCut[out[i]][title] = true
	}
	for i, title := range titles {
		if len(byCut[out[i]]) > 1 {
			out[i] = cutApart(title, rooms[i])
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
