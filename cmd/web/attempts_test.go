package web

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A task tried side by side shows each attempt's diff on its page, for
// the pick: from its branch, or from the ref it is kept under.
func TestTaskPageShowsEveryAttempt(t *testing.T) {
	s := newSite(t)
	git := func(args ...string) string {
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		c.Dir = s.root
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("commit", "-q", "--allow-empty", "-m", "base")
	for i, ref := range []string{"refs/heads/bh/tm-att1", "refs/bh/attempts/tm-try1/2"} {
		name := []string{"one.txt", "two.txt"}[i]
		os.WriteFile(filepath.Join(s.root, name), []byte("attempt "+name+"\n"), 0o644)
		git("add", name)
		git("update-ref", ref, git("commit-tree", git("write-tree"), "-p", "HEAD", "-m", name))
		git("rm", "-q", "--cached", name)
	}
	files := map[string]string{
		"tm-try1": "id: tm-try1\ntitle: Write a file\ntype: code\npriority: P2\nstate: awaiting_input\nattempts: 2\ndependsOn: [tm-att1, tm-att2]\n",
		"tm-att1": "id: tm-att1\ntitle: 'attempt 1/2: Write a file'\ntype: code\npriority: P2\nstate: closed\nparent: tm-try1\nattempt: 1\nsummary: wrote one\n",
		"tm-att2": "id: tm-att2\ntitle: 'attempt 2/2: Write a file'\ntype: code\npriority: P2\nstate: closed\nparent: tm-try1\nattempt: 2\n",
	}
	for id, body := range files {
		body += "createdAt: 2026-01-01T10:00:00Z\nupdatedAt: 2026-01-01T10:00:00Z\n"
		if err := os.WriteFile(s.st.Path(id), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resp, body := s.do("GET", strings.Replace(s.base, "tm-ask1", "tm-try1", 1), nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	for _, want := range []string{
		`<h2>Attempts side by side</h2>`,
		`<summary>Attempt 1 <code>tm-att1</code>: wrote one</summary>`,
		`<span class="add">&#43;attempt one.txt</span>`,
		`<summary>Attempt 2 <code>tm-att2</code></summary>`,
		`<span class="add">&#43;attempt two.txt</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
