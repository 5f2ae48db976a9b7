package cmd

import (
	"io"
	"regexp"
	"strings"

	"github.com/mattn/go-runewidth"
)

var ansiRe = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// width is how many terminal columns s takes, colour codes aside.
func width(s string) int { return runewidth.StringWidth(ansiRe.ReplaceAllString(s, "")) }

// printTable writes rows with aligned columns two spaces apart. Cells may
// be coloured; the last column is not padded, and empty columns are left out.
func printTable(w io.Writer, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], width(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if widths[i] == 0 {
				continue
			}
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-width(c)+2))
			}
		}
		io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n")
	}
}
