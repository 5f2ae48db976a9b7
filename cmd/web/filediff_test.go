package web

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A big file of the change (a generated one of 1,500 lines) is folded,
// and none of its lines is on the page: they come from the file's own
// address when the fold is opened, numbered and open to comments; the
// small file beside it is open, numbered, coloured. The page's size is
// logged (the 204 KB page, before).
func TestTaskPageBigFileFolded(t *testing.T) {
	s := newSite(t)
	var gen strings.Builder
	for i := 1; i <= 1500; i++ {
		fmt.Fprintf(&gen, "const Generated%04d = %d\n", i, i)
	}
	s.parkFiles(map[string]string{"schema.sql": "create table b;\n", "gen/consts.go": gen.String(), "docs/café.md": "# Café\nline two\n"})
	resp, page := s.do("GET", s.base, nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, page)
	}
	t.Logf("the page: %d bytes", len(page))
	if strings.Contains(page, "Generated0001") || len(page) > 40<<10 {
		t.Errorf("the page holds the big file (%d bytes)", len(page))
	}
	src := s.base + "/file?path=" + url.QueryEscape("gen/consts.go")
	for _, want := range []string{
		`<details class="file" data-path="gen/consts.go" data-src="` + src + `">`,
		`<p class="note fetch">A long diff, folded: <a href="` + src + `">open the file</a>`,
		`<details class="file" data-path="docs/café.md" open>`,
		`<span class="add" data-line="2" tabindex="-1"><span class="lno"></span><span class="lno">2</span><span class="sign">&#43;</span>line two</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	resp, part := s.do("GET", src, nil, nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(part, `<pre class="diff chroma" tabindex="0">`) {
		t.Fatalf("the big file: %d %.200s", resp.StatusCode, part)
	}
	t.Logf("the big file, fetched: %d bytes", len(part))
	zipped, err := http.DefaultTransport.RoundTrip(func() *http.Request {
		r, _ := http.NewRequest("GET", s.ts.URL+src, nil)
		r.AddCookie(&http.Cookie{Name: cookieName, Value: token})
		r.Header.Set("Accept-Encoding", "gzip")
		return r
	}())
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, zipped.Body)
	zipped.Body.Close()
	t.Logf("the big file, fetched with gzip: %d bytes", n)
	if zipped.Header.Get("Content-Encoding") != "gzip" || n > int64(len(part))/5 {
		t.Errorf("the big file with gzip: %d bytes, %q", n, zipped.Header.Get("Content-Encoding"))
	}
	want := `<span class="add" data-line="1500" tabindex="-1"><span class="lno"></span><span class="lno">1500</span><span class="sign">&#43;</span><span class="kd">const</span> <span class="nx">Generated1500</span>`
	if !strings.Contains(part, want) {
		t.Errorf("the big file lacks %q", want)
	}
	if resp, _ := s.do("GET", src, nil, noCookie); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d", resp.StatusCode)
	}
	if resp, _ := s.do("GET", s.base+"/file?path=nothere.go", nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a file not in the change: %d", resp.StatusCode)
	}
}
