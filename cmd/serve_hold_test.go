package cmd

import (
	"bufio"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// serveProcess starts bh serve in dir as a process of its own, with env
// added to the test's, and returns it with the address it printed (with
// ?token=); the test's end kills it if it still runs.
func serveProcess(t *testing.T, dir string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	serve := exec.Command("bh", "serve", "--listen", "127.0.0.1:0")
	serve.Dir, serve.Env = dir, append(os.Environ(), env...)
	out, _ := serve.StdoutPipe()
	serve.Stderr = os.Stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(addr, "?token=") {
		t.Fatalf("bh serve printed %q: %v", addr, err)
	}
	return serve, strings.TrimSpace(addr)
}

// A gate approved on the page is held for its undo window; bh serve
// stopped (Ctrl-C) within it records the approval at once (nobody undid
// it, as the board does when it quits), and the next worker lands it.
func TestServeStoppedInTheWindowRecordsTheApproval(t *testing.T) {
	root := t.TempDir()
	bin := binE2E(t, root)
	agentDir := filepath.Join(root, "agent")
	os.MkdirAll(agentDir, 0o755)
	writeE2E(t, agentDir, "report.plan", planReport)
	for k, v := range map[string]string{"PATH": bin + ":" + os.Getenv("PATH"), "FAKEAGENT_DIR": agentDir,
		"XDG_STATE_HOME": filepath.Join(root, "state"), "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"GIT_CONFIG_NOSYSTEM": "1", "HOME": root, "BH_SANDBOX": "off"} {
		t.Setenv(k, v)
	}
	dir := filepath.Join(root, "shop")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Write the report", "--gate", "approval"))
	bhE2E(t, dir, "worker", "--once")
	qid := bhTask(t, dir, id).OpenQuestions()[0].ID
	waiting := readE2E(t, dir, ".bh/tasks/"+id+".yaml")

	// An hour's window (the test hook): it cannot end before the stop.
	serve, addr := serveProcess(t, dir, "BH_TEST_UNDO_WINDOW=1h")
	site, token, _ := strings.Cut(addr, "/?token=")
	page := site + "/r/" + config.RepoKey(dir) + "/t/" + id
	do := func(method, path string, form url.Values) string {
		t.Helper()
		req, _ := http.NewRequest(method, path, strings.NewReader(form.Encode()))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if held := do("POST", page+"/answer", url.Values{"q": {qid}, "answer": {"yes"}, "reviewed": {"1"}}); !strings.Contains(held, "Nothing is recorded yet") {
		t.Fatalf("the approval is not held:\n%s", held)
	}
	serve.Process.Signal(os.Interrupt)
	if err := serve.Wait(); err != nil {
		t.Fatalf("bh serve after Ctrl-C: %v", err)
	}
	if got := readE2E(t, dir, ".bh/tasks/"+id+".yaml"); got == waiting {
		t.Fatalf("bh serve stopped in the window, and the approval it held is lost")
	}
	bhE2E(t, dir, "worker", "--once")
	if tk := bhTask(t, dir, id); tk.State != task.Closed {
		t.Errorf("after a worker run: %s", tk.State)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.txt")); err != nil {
		t.Error("the approved work did not land")
	}
}
