package diffview

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// chroma's own lexers package builds a registry of its 280 lexers when the
// program starts: 2.7 MB and about 9 ms of CPU at every start (a bh
// --version at 5.5 ms of CPU took 22 with it, when bh linked the inbox).
// bh-web links the inbox now, not bh, but so do cmd's tests, whose
// scripts start that test binary as bh over a thousand times. So bh carries the lexers of the
// languages most diffs are in, chroma's own definitions copied from
// chroma v2.27.0 (lexers/, with chroma's licence, COPYING), and reads them
// the first time a diff is coloured. TestLexersAsChromas holds them to
// chroma's.

//go:embed lexers/*.xml
var lexerFiles embed.FS

var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	paths, _ := fs.Glob(lexerFiles, "lexers/*.xml")
	for _, p := range paths {
		if l, err := chroma.NewXMLLexer(lexerFiles, p); err == nil {
			reg.Register(l)
		}
	}
	reg.Register(goLexer())
	return reg
})

// match is the lexer for a file named name, nil when none knows it.
func match(name string) chroma.Lexer { return registry().Match(name) }

// goLexer is chroma's Go lexer (lexers/go.go, MIT: see lexers/COPYING),
// which chroma writes in Go rather than XML. A raw string is one string
// here, where chroma reads text/template inside it.
func goLexer() chroma.Lexer {
	return chroma.MustNewLexer(&chroma.Config{Name: "Go", Aliases: []string{"go", "golang"},
		Filenames: []string{"*.go"}, MimeTypes: []string{"text/x-gosrc"}}, goRules)
}

func goRules() chroma.Rules {
	W, G := chroma.Words, chroma.ByGroups
	types := []string{`uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`,
		`float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`}
	builtins := append(append([]string{}, types...), `print`, `println`, `panic`, `recover`, `close`, `complex`,
		`real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`)
	return chroma.Rules{"root": {
		{Pattern: `\n`, Type: chroma.TextWhitespace},
		{Pattern: `\s+`, Type: chroma.TextWhitespace},
		{Pattern: `//[^\s\n\r][^\n\r]*`, Type: chroma.CommentPreproc},
		{Pattern: `//[^\n\r]*`, Type: chroma.CommentSingle},
		{Pattern: `/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, Type: chroma.CommentMultiline},
		{Pattern: `(import|package)\b`, Type: chroma.KeywordNamespace},
		{Pattern: `(var|func|struct|map|chan|type|interface|const)\b`, Type: chroma.KeywordDeclaration},
		{Pattern: W(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`,
			`fallthrough`, `if`, `range`, `continue`, `for`, `return`), Type: chroma.Keyword},
		{Pattern: `(true|false|iota|nil)\b`, Type: chroma.KeywordConstant},
		{Pattern: W(``, `\b(\()`, builtins...), Type: G(chroma.NameBuiltin, chroma.Punctuation)},
		{Pattern: W(``, `\b`, append(types, `any`)...), Type: chroma.KeywordType},
		{Pattern: `\d+i`, Type: chroma.LiteralNumber},
		{Pattern: `\d+\.\d*([Ee][-+]\d+)?i`, Type: chroma.LiteralNumber},
		{Pattern: `\.\d+([Ee][-+]\d+)?i`, Type: chroma.LiteralNumber},
		{Pattern: `\d+[Ee][-+]\d+i`, Type: chroma.LiteralNumber},
		{Pattern: `\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, Type: chroma.LiteralNumberFloat},
		{Pattern: `\.\d+([eE][+\-]?\d+)?`, Type: chroma.LiteralNumberFloat},
		{Pattern: `0[0-7]+`, Type: chroma.LiteralNumberOct},
		{Pattern: `0[xX][0-9a-fA-F_]+`, Type: chroma.LiteralNumberHex},
		{Pattern: `0b[01_]+`, Type: chroma.LiteralNumberBin},
		{Pattern: `(0|[1-9][0-9_]*)`, Type: chroma.LiteralNumberInteger},
		{Pattern: `'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, Type: chroma.LiteralStringChar},
		{Pattern: "`[^`]*`", Type: chroma.LiteralString},
		{Pattern: `"(\\\\|\\"|[^"])*"`, Type: chroma.LiteralString},
		{Pattern: `(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, Type: chroma.Operator},
		{Pattern: `([a-zA-Z_]\w*)(\s*)(\()`, Type: G(chroma.NameFunction, chroma.UsingSelf("root"), chroma.Punctuation)},
		{Pattern: `[|^<>=!()\[\]{}.,;:~]`, Type: chroma.Punctuation},
		{Pattern: `[^\W\d]\w*`, Type: chroma.NameOther},
	}}
}
