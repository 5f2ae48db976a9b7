package web

import "strings"

// table is the number of columns of the GFM table whose header is line i
// (a row with pipes, then a delimiter row of as many cells), or 0.
func table(lines []string, i int) int {
	if i+1 >= len(lines) || !strings.Contains(lines[i], "|") {
		return 0
	}
	if ind, _ := indent(lines[i]); ind >= 4 {
		return 0
	}
	head, delim := cells(lines[i]), cells(lines[i+1])
	if len(head) != len(delim) || !strings.Contains(lines[i]+lines[i+1], "|") {
		return 0
	}
	for _, d := range delim {
		d = strings.TrimSuffix(strings.TrimPrefix(d, ":"), ":")
		if d == "" || strings.Trim(d, "-") != "" {
			return 0
		}
	}
	return len(head)
}

// cells splits a row at its pipes (not escaped ones), leaving out the
// leading and trailing pipe.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var out []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			out = append(out, row[start:i])
			start = i + 1
		}
	}
	out = append(out, row[start:])
	for i, c := range out {
		out[i] = strings.ReplaceAll(strings.TrimSpace(c), `\|`, "|")
	}
	return out
}

// writeTable writes the table at line i, its rows running to a blank line
// or another block, each cut or padded to the header's width.
func writeTable(b *strings.Builder, lines []string, i int, depth int) int {
	n := table(lines, i)
	row := func(tag, line string) {
		cs := cells(line)
		b.WriteString("<tr>\n")
		for j := 0; j < n; j++ {
			b.WriteString("<" + tag + ">")
			if j < len(cs) {
				inlineHTML(b, cs[j], depth)
			}
			b.WriteString("</" + tag + ">\n")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("<table>\n<thead>\n")
	row("th", lines[i])
	b.WriteString("</thead>\n")
	i += 2
	if i < len(lines) && !blank(lines[i]) && !interrupts(lines, i) {
		b.WriteString("<tbody>\n")
		for ; i < len(lines) && !blank(lines[i]) && !interrupts(lines, i); i++ {
			row("td", lines[i])
		}
		b.WriteString("</tbody>\n")
	}
	b.WriteString("</table>\n")
	return i
}
