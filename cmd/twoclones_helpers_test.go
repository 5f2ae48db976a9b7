package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// twoClones is a shared bare remote and its clones, each one machine
// (BH_HOST), whose workers run as processes of their own: bh and
// fakeagent are the test binary, and every machine's agent logs its runs
// in one FAKEAGENT_DIR, so a task run on both shows there.
type twoClones struct {
	root, bin, agentDir string
	remote              string
	ids                 map[string]string // title -> task id
	env                 []string          // every clone's bh: its home and settings
}

// newTwoClones makes the remote with config and one task per title, and
// clones it once per name.
func newTwoClones(t *testing.T, config, plans string, titles []string, names ...string) *twoClones {
	t.Helper()
	root := t.TempDir()
	c := &twoClones{root: root, bin: binE2E(t, root), agentDir: filepath.Join(root, "agent"),
		remote: filepath.Join(root, "remote.git"), ids: map[string]string{}}
	os.MkdirAll(c.agentDir, 0o755)
	for name, body := range splitTxtar(plans) {
		if name != "" {
			writeE2E(t, c.agentDir, name, body)
		}
	}
	// The clones' bh runs get their own home and settings by their
	// environment, not the test binary's: the tests run in parallel.
	c.env = []string{"HOME=" + root, "XDG_CONFIG_HOME=" + filepath.Join(root, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + filepath.Join(root, "gitconfig"), "FAKEAGENT_DIR=" + c.agentDir,
		"BH_SANDBOX=off"} // the fake agent's dir is in root, which a sandbox hides
	writeE2E(t, root, "gitconfig", "[user]\n\tname = t\n\temail = t@t\n")
	gitE2E(t, root, "init", "-q", "--bare", "-b", "main", c.remote)
	seed := filepath.Join(root, "seed")
	repoE2E(t, seed, config)
	for _, title := range titles {
		c.ids[title] = strings.TrimSpace(bhE2E(t, seed, "add", title))
	}
	gitE2E(t, seed, "add", "-A")
	gitE2E(t, seed, "commit", "-q", "-m", "tasks")
	gitE2E(t, seed, "remote", "add", "origin", c.remote)
	gitE2E(t, seed, "push", "-q", "origin", "main")
	for _, name := range names {
		gitE2E(t, root, "clone", "-q", c.remote, name)
	}
	return c
}

func (c *twoClones) dir(name string) string { return filepath.Join(c.root, name) }

// cmd is bh in clone name, on machine name, with its own state dir (its
// worktrees) and the extra environment given.
func (c *twoClones) cmd(name string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(c.bin, "bh"), args...)
	cmd.Dir = c.dir(name)
	cmd.Env = append(os.Environ(), "PATH="+c.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"BH_HOST=machine-"+name, "XDG_STATE_HOME="+filepath.Join(c.root, ".state-"+name))
	cmd.Env = append(append(cmd.Env, c.env...), env...)
	return cmd
}

// bh runs bh in clone name and returns its exit code and output.
func (c *twoClones) bh(t *testing.T, name string, args ...string) (int, string) {
	t.Helper()
	cmd := c.cmd(name, nil, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatalf("bh %s in %s: %v", strings.Join(args, " "), name, err)
	}
	return 0, out.String()
}

// runs counts the agent's runs per task in runs.log: fresh (resume=0)
// and resumed in another session than the task's first.
func (c *twoClones) runs(t *testing.T) (fresh, strange map[string]int) {
	t.Helper()
	fresh, strange = map[string]int{}, map[string]int{}
	b, _ := os.ReadFile(filepath.Join(c.agentDir, "runs.log"))
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(l)
		if len(f) < 6 {
			continue
		}
		switch {
		case f[3] == "resume=0":
			fresh[f[1]]++
		case f[5] == "same-session=no": // first: a run cut short before its agent, resumed
			strange[f[1]]++
		}
	}
	return fresh, strange
}

// landedOnce counts, per task, the commits on the remote's main that
// name it (bh-task: ID).
func (c *twoClones) landed(t *testing.T) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, l := range strings.Split(gitE2E(t, c.root, "--git-dir", c.remote, "log", "--format=%B", "main"), "\n") {
		if id, ok := strings.CutPrefix(strings.TrimSpace(l), "bh-task: "); ok {
			n[id]++
		}
	}
	return n
}

// eventually waits for cond, polling, until the deadline (generous: a
// loaded machine is slow, never wrong).
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(within); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("after %s: %s", within, what)
		}
	}
}
