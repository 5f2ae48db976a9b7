package ui

import (
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/mattn/go-runewidth"
)

var ansiRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;]*m`) })

// Width is how many terminal columns s takes, colour codes aside.
func Width(s string) int { return width(ansiRe().ReplaceAllString(s, "")) }

// width is runewidth's StringWidth with a path for plain ASCII, which is
// one column a byte: runewidth splits every string into graphemes first,
// and bh's help text alone (bh worker's, built at every start) cost a
// third of a millisecond that way.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return runewidth.StringWidth(s)
		}
	}
	return len(s)
}

// PrintTable writes rows with aligned columns two spaces apart. Cells may
// be coloured; the last column is not padded, and empty columns are left out.
func PrintTable(w io.Writer, rows [][]string) { FitTable(w, rows, 0, -1) }

// FitTable is PrintTable within cols columns of terminal (0: no limit):
// the cells of column flex (a title) are cut, with "…", to make rows fit.
func FitTable(w io.Writer, rows [][]string, cols, flex int) {
	widths := colWidths(rows)
	if cols > 0 && flex >= 0 && flex < len(widths) {
		total := 0
		for _, n := range widths {
			if n > 0 {
				total += n + 2
			}
		}
		if over := total - 2 - cols; over > 0 {
			widths[flex] = max(widths[flex]-over, 12)
			for _, r := range rows {
				if flex < len(r) && Width(r[flex]) > widths[flex] {
					r[flex] = Cut(r[flex], widths[flex])
				}
			}
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
				b.WriteString(strings.Repeat(" ", widths[i]-Width(c)+2))
			}
		}
		io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n")
	}
}

func colWidths(rows [][]string) []int {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], Width(c))
		}
	}
	return widths
}

// Cut shortens s to n columns, ending in "…" (colour codes are dropped).
func Cut(s string, n int) string {
	return runewidth.Truncate(ansiRe().ReplaceAllString(s, ""), n, "…")
}

// Wrap breaks text into lines of at most n columns, at spaces; lines it
// already has stay, and so does their indentation (tabs become spaces).
func Wrap(s string, n int) string {
	if n <= 10 {
		return s
	}
	var out []string
	for _, line := range strings.Split(ExpandTabs(s), "\n") {
		if width(line) <= n { // code keeps its spacing
			out = append(out, line)
			continue
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
		cur := ""
		for _, word := range strings.Fields(line) {
			switch {
			case cur == "":
				cur = indent + word
			case width(cur)+1+width(word) > n:
				out, cur = append(out, cur), indent+word
			default:
				cur += " " + word
			}
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}
