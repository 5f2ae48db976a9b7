package gfm

import (
	"bytes"
	"regexp"
	"sync"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// strikes reads ~text~ and ~~text~~.
type strikes struct{}

func (strikes) IsDelimiter(b byte) bool { return b == '~' }

func (strikes) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (strikes) OnMatch(int) gast.Node { return ast.NewStrikethrough() }

func (strikes) Trigger() []byte { return []byte{'~'} }

func (s strikes) Parse(_ gast.Node, block text.Reader, pc parser.Context) gast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	node := parser.ScanDelimiter(line, before, 1, s)
	if node == nil || node.OriginalLength > 2 || before == '~' {
		return nil
	}
	node.Segment = segment.WithStop(segment.Start + node.OriginalLength)
	block.Advance(node.OriginalLength)
	pc.PushDelimiter(node)
	return node
}

// taskBoxes reads "[ ]" and "[x]" opening a list item.
type taskBoxes struct{}

func (taskBoxes) Trigger() []byte { return []byte{'['} }

func (taskBoxes) Parse(parent gast.Node, block text.Reader, _ parser.Context) gast.Node {
	if _, ok := parent.Parent().(*gast.ListItem); !ok || parent.Parent().FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	line, _ := block.PeekLine()
	if !checkBox(line) {
		return nil
	}
	block.Advance(3 + len(line[3:]) - len(util.TrimLeftSpace(line[3:])))
	return ast.NewTaskCheckBox(line[1] == 'x' || line[1] == 'X')
}

// checkBox says whether line starts with a check box: ^\[([\sxX])\].
func checkBox(line []byte) bool {
	return len(line) >= 3 && line[0] == '[' && line[2] == ']' && (util.IsSpace(line[1]) || line[1] == 'x' || line[1] == 'X')
}

// linkREs are goldmark's expressions for a bare web address, compiled
// on first use (see the package's comment).
var linkREs = sync.OnceValues(func() (url, www *regexp.Regexp) {
	tail := `(?:[/#?][-a-zA-Z0-9@:%_\+.~#!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`
	return regexp.MustCompile(`^(?:http|https|ftp)://[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?::\d+)?` +
			`(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`),
		regexp.MustCompile(`^www\.[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+` + tail)
})

// links reads bare web and mail addresses as links.
type links struct{}

func (links) Trigger() []byte {
	return []byte{' ', '*', '_', '~', '('} // ' ': any space, and a line's start
}

func (links) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, segment := block.PeekLine()
	consumes, start := 0, segment.Start
	if c := line[0]; c == ' ' || c == '*' || c == '_' || c == '~' || c == '(' {
		consumes++
		start++
		line = line[1:]
	}
	typ, protocol, m := address(line)
	if m == nil {
		return nil
	}
	if consumes != 0 {
		gast.MergeOrAppendTextSegment(parent, segment.WithStop(segment.Start+1))
	}
	i := linkEnd(line, m[1])
	block.Advance(consumes + i)
	link := gast.NewAutoLink(typ, gast.NewTextSegment(text.NewSegment(start, start+i)))
	link.Protocol = protocol
	return link
}

// address is the match of a web or mail address at line's start, its
// kind, and the protocol a bare "www." needs; m is nil when none starts
// there.
func address(line []byte) (typ gast.AutoLinkType, protocol []byte, m []int) {
	if bytes.HasPrefix(line, []byte("http:")) || bytes.HasPrefix(line, []byte("https:")) || bytes.HasPrefix(line, []byte("ftp:")) {
		url, _ := linkREs()
		m = url.FindSubmatchIndex(line)
	}
	if m == nil && bytes.HasPrefix(line, []byte("www.")) {
		_, www := linkREs()
		m, protocol = www.FindSubmatchIndex(line), []byte("http")
	}
	if m != nil && m[0] == 0 {
		return gast.AutoLinkURL, protocol, m
	}
	return gast.AutoLinkEmail, protocol, email(line) // goldmark's: a "www." mail address is http's
}

// email is the match of a mail address at line's start, or nil.
func email(line []byte) []int {
	if len(line) > 0 && util.IsPunct(line[0]) {
		return nil
	}
	stop := util.FindEmailIndex(line)
	if stop < 0 {
		return nil
	}
	at := bytes.IndexByte(line, '@')
	m := []int{0, stop, at, stop - 1}
	if bytes.IndexByte(line[m[2]:m[3]], '.') < 0 {
		return nil
	}
	if line[m[1]-1] == '.' {
		m[1]--
	}
	if m[1] < len(line) && (line[m[1]] == '-' || line[m[1]] == '_') {
		return nil
	}
	return m
}

// linkEnd is where a link matched up to end stops: without the
// punctuation that ends a sentence, a closing parenthesis it did not
// open, or an entity reference.
func linkEnd(line []byte, end int) int {
	opening := bytes.Count(line[:end], []byte{'('})
	closing := bytes.Count(line[:end], []byte{')'})
	i := end
	for i > 1 {
		switch line[i-1] {
		case '?', '!', '.', ',', ':', '*', '_', '~':
			i--
		case ')':
			if closing <= opening {
				return i
			}
			closing--
			i--
		case ';':
			j := entityStart(line, i-1)
			if j < 0 {
				return i
			}
			i = j
		default:
			return i
		}
	}
	return i
}

// entityStart is where the entity reference (&name;) whose ";" is at
// semi starts, or -1.
func entityStart(line []byte, semi int) int {
	j := semi - 1
	for j > 0 && util.IsAlphaNumeric(line[j]) {
		j--
	}
	if j == semi-1 || line[j] != '&' {
		return -1
	}
	return j
}
