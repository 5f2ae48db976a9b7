package web

import (
	"bytes"
	"html/template"
	"regexp"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// markdown renders an agent's text (a question, its context, a summary):
// GitHub-flavoured markdown through goldmark, which leaves raw HTML out,
// then bluemonday's policy for user content over what it made, so that
// nothing an agent writes runs in the page.
type markdown struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
}

func newMarkdown() *markdown {
	p := bluemonday.UGCPolicy()
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[\w+-]+$`)).OnElements("code") // the fence's language
	return &markdown{md: goldmark.New(goldmark.WithExtensions(extension.GFM)), policy: p}
}

// HTML is text rendered and sanitized; text that cannot be rendered is
// shown escaped, as it is.
func (m *markdown) HTML(text string) template.HTML {
	var b bytes.Buffer
	if err := m.md.Convert([]byte(text), &b); err != nil {
		return template.HTML(template.HTMLEscapeString(text))
	}
	return template.HTML(m.policy.SanitizeBytes(b.Bytes()))
}
