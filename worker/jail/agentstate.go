package jail

import (
	"cmp"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/config"
)

// Each task's agent (claude, codex) keeps its state (Claude Code's
// CLAUDE_CONFIG_DIR, codex's CODEX_HOME) in a folder of its own, never in
// the user's ~/.claude, ~/.claude.json or ~/.codex:
//   - The folder is made afresh before every run and every takeover, from
//     copies of the user's settings, login and onboarding (agent.StateOf);
//     of what was there before, only the session's transcript is carried
//     over, and only if it is a plain file. Whatever a run planted there (a
//     hook in settings.json, an MCP server in .claude.json, a CLAUDE.md, a
//     memory) is gone before anything reads the folder again, the human's
//     own takeover (bh continue) above all.
//   - Nothing flows back to the user's config but a refreshed OAuth login
//     (agent.AdoptLogin: the providers' refresh tokens are single-use). A
//     takeover's finished first-run setup is remembered by bh, outside any
//     sandbox, for the next takeover's fresh folder (rememberOnboarding).
//   - In the sandbox only the run's own folder is writable; every other
//     task's, of every repository, and the user's own state are hidden.
//   - The session goes in and out as before: bh's copy of the transcript
//     (session.go) is put back when the folder lacks it.

// stateRoot is the folder holding every task's agent state, of every
// repository: agents/ in bh's state dir, beside its worktrees.
func stateRoot(commonDir string) string {
	if d := StateDir(); d != "" {
		return filepath.Join(d, "agents")
	}
	return filepath.Join(commonDir, "bh", "agents")
}

// AgentStateDir is the folder task id's agent of kind ("claude", "codex")
// keeps its state in: <bh's state dir>/agents/<repository>-<hash>/<id>/<kind>.
func AgentStateDir(root, commonDir, id, kind string) string {
	return filepath.Join(AgentStatesOf(root, commonDir), id, cmp.Or(kind, "claude"))
}

// AgentStatesOf is the folder of the repository's tasks' agent states,
// one folder per task.
func AgentStatesOf(root, commonDir string) string {
	sum := sha1.Sum([]byte(commonDir))
	return filepath.Join(stateRoot(commonDir), filepath.Base(root)+"-"+hex.EncodeToString(sum[:4]))
}

func (j *Jail) agentStateDir(id, kind string) string {
	return AgentStateDir(j.Store.Root, j.CommonDir, id, kind)
}

// StateEnv points the agent of cfg at task id's own state; it goes after
// the options' environment, so that it wins. None for a command agent.
func (j *Jail) StateEnv(id string, cfg config.AgentConfig) []string {
	st, ok := agent.StateOf(cfg.Kind, j.Getenv)
	if !ok {
		return nil
	}
	return []string{st.Env + "=" + j.agentStateDir(id, cfg.Kind)}
}

// agentState is what the sandbox makes of agent state: task id's own
// folder writable (made if missing), and hidden the user's state of every
// agent and the folder of every task's.
func (j *Jail) agentState(id string, cfg config.AgentConfig) (writable, hidden []string, err error) {
	getenv := j.Getenv
	hidden = []string{stateRoot(j.CommonDir)}
	for _, kind := range []string{"claude", "codex"} {
		st, _ := agent.StateOf(kind, getenv)
		for _, p := range st.User {
			if filepath.IsAbs(p) { // not under an unknown home
				hidden = append(hidden, p)
			}
		}
	}
	if _, ok := agent.StateOf(cfg.Kind, getenv); !ok || id == "" { // no task: bh's own check of the agent
		return nil, hidden, nil
	}
	dir := j.agentStateDir(id, cfg.Kind)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	return []string{dir}, hidden, nil
}

// FreshState makes task id's agent state afresh (see the top of this
// file). keep is the session transcript to carry over, "" for none.
func (j *Jail) FreshState(id string, cfg config.AgentConfig, keep string) error {
	st, ok := agent.StateOf(cfg.Kind, j.Getenv)
	if !ok || j.OwnState {
		return nil
	}
	dir := j.agentStateDir(id, cfg.Kind)
	j.adoptLogin(id, cfg.Kind, st, dir) // one a killed run refreshed
	old := dir + ".old"
	if err := setAside(dir, old); err != nil {
		return fmt.Errorf("agent state: %w", err)
	}
	defer os.RemoveAll(old) // links in it are removed, never followed
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("agent state: %w", err)
	}
	for name, src := range st.Seed {
		if !filepath.IsAbs(src) {
			continue // no home to copy from
		}
		if err := seedFile(src, filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("agent state: copy the user's %s: %w", name, err)
		}
	}
	if st.Env == "CLAUDE_CONFIG_DIR" {
		if err := agent.AddOnboarding(dir, j.rememberedOnboarding()); err != nil {
			return fmt.Errorf("agent state: %w", err)
		}
	}
	return keepSession(dir, old, keep)
}

// setAside moves the state in dir to old, in place of what was there.
func setAside(dir, old string) error {
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// keepSession carries the session transcript keep, under dir, over from
// the state set aside in old, if it is a plain file there.
func keepSession(dir, old, keep string) error {
	rel, err := filepath.Rel(dir, keep)
	if keep == "" || err != nil || strings.HasPrefix(rel, "..") || !plainFileUnder(old, rel) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(keep), 0o700); err != nil {
		return fmt.Errorf("agent state: %w", err)
	}
	if err := os.Rename(filepath.Join(old, rel), keep); err != nil {
		return fmt.Errorf("agent state: keep the session: %w", err)
	}
	return nil
}

// seedFile copies one of the user's own files (a link followed: dotfiles
// often are) into a run's state; a missing one is no error.
func seedFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o600)
}

// plainFileUnder reports whether rel, under root, is a regular file
// reached through real folders: no link on the way, whatever a run made.
func plainFileUnder(root, rel string) bool {
	p := root
	parts := strings.Split(rel, string(filepath.Separator))
	for i, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil || i < len(parts)-1 && !fi.IsDir() || i == len(parts)-1 && !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// maxLogin caps what bh reads of a run's login file.
const maxLogin = 1 << 20

// CloseState ends a run's (or a takeover's) use of task id's agent state:
// a login the run refreshed goes back to the user (agent.AdoptLogin), the
// run's copy of the login is removed (the next run gets a fresh one), and
// a takeover's finished first-run setup is remembered.
func (j *Jail) CloseState(id string, cfg config.AgentConfig, takeover bool) {
	st, ok := agent.StateOf(cfg.Kind, j.Getenv)
	if !ok || j.OwnState {
		return
	}
	dir := j.agentStateDir(id, cfg.Kind)
	j.adoptLogin(id, cfg.Kind, st, dir)
	os.Remove(filepath.Join(dir, st.Login))
	if takeover && st.Env == "CLAUDE_CONFIG_DIR" {
		j.rememberOnboarding(dir)
	}
}

// adoptLogin carries a login the run in dir refreshed back to the user's
// (agent.AdoptLogin). The run is over and its processes gone, but the
// file is the agent's: a link, a fifo or a huge file is not read.
func (j *Jail) adoptLogin(id, kind string, st agent.State, dir string) {
	login, user := filepath.Join(dir, st.Login), st.Seed[st.Login]
	if fi, err := os.Lstat(login); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxLogin || !filepath.IsAbs(user) {
		return
	}
	if _, err := agent.AdoptLogin(kind, login, user); err != nil {
		j.Warnf("%s: carry the refreshed login back to %s: %v", id, user, err)
	}
}

// onboardingFile is where bh remembers that Claude Code's first-run setup
// was done in a takeover.
func (j *Jail) onboardingFile() string {
	return filepath.Join(stateRoot(j.CommonDir), "claude-onboarding.json")
}

func (j *Jail) rememberOnboarding(dir string) {
	conf := filepath.Join(dir, ".claude.json")
	if fi, err := os.Lstat(conf); err != nil || !fi.Mode().IsRegular() || fi.Size() > 64*maxLogin {
		return
	}
	if m := agent.RememberOnboarding(dir); m != nil {
		b, _ := json.Marshal(m)
		if err := os.WriteFile(j.onboardingFile(), b, 0o600); err != nil {
			j.Warnf("remember claude's first-run setup: %v", err)
		}
	}
}

func (j *Jail) rememberedOnboarding() map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if b, err := os.ReadFile(j.onboardingFile()); err == nil {
		json.Unmarshal(b, &m)
	}
	return m
}

// A task's agent state and its outbox live in
// bh's state dir, a folder each, and serve only its runs and takeovers. A
// task that closes through its run's ending drops both; bh doctor finds
// those of tasks closed some other way (bh close, another clone) or
// deleted. Nothing bh transcript or a later run needs is there: the run
// logs and bh's copies of the sessions are kept in .git/bh/runs, and a
// reopened task's run resumes from that copy (restoreSession).

// DropTaskState removes task id's agent state, outbox and own folder
// (runhome.go). No link in them is followed.
func (j *Jail) DropTaskState(id string) error {
	return errors.Join(os.RemoveAll(j.Outbox(id)), os.RemoveAll(filepath.Join(AgentStatesOf(j.Store.Root, j.CommonDir), id)),
		RemoveTree(j.RunHome(id)))
}
