package worker

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// attemptAgent is a command agent that writes a file of its own attempt
// (BH_ATTEMPT) on its first run, and on a resume what it was told and the
// session and resume flag bh gave it.
const attemptAgent = `if [ "$BH_RESUME" = 1 ]; then
  { cat; echo "session=$BH_SESSION_ID resume=$BH_RESUME"; } > resumed$BH_ATTEMPT.txt
else
  cat >/dev/null; echo "attempt $BH_ATTEMPT" > attempt$BH_ATTEMPT.txt
fi
printf '{"status":"completed","summary":"attempt %s did it"}\n' "$BH_ATTEMPT"`

// tried runs a worker with -j jobs on tk, a task tried side by side by
// command agents running script, and returns it as they left it.
func tried(t *testing.T, script string, tk *task.Task, jobs int) (*store.Store, *task.Task) {
	t.Helper()
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}}
	tk, err := s.Create(tk)
	if err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Jobs: jobs, Env: []string{"HOME=" + t.TempDir()}})
	return s, getTask(t, s, tk.ID)
}

// failing is a command agent whose attempt n fails; the others write
// attempt<K>.txt.
func failing(n int) string {
	return fmt.Sprintf(`cat >/dev/null
if [ "$BH_ATTEMPT" = %d ]; then echo '{"status":"failed","summary":"could not"}'; exit 0; fi
echo "attempt $BH_ATTEMPT" > attempt$BH_ATTEMPT.txt
echo '{"status":"completed","summary":"did it"}'`, n)
}

// threeAttempts runs a task with attempts: 3 (three command agents at
// once) to its pick, and returns it with its attempts.
func threeAttempts(t *testing.T) (*store.Store, *task.Task, []*task.Task) {
	t.Helper()
	s, tk := tried(t, attemptAgent, &task.Task{Title: "write a file", Attempts: 3}, 3)
	got := tk
	as, err := attempts.Of(s, got)
	if err != nil || len(as) != 3 {
		t.Fatalf("%s has attempts %v (%v), want 3", tk.ID, as, err)
	}
	for i, a := range as {
		if a.State != task.Closed || a.Attempt != i+1 || !strings.HasPrefix(a.Title, "attempt ") {
			t.Fatalf("attempt %d: %s %q is %s (%s), want closed with its work on its branch", i+1, a.ID, a.Title, a.State, lastNote(a))
		}
	}
	if got.State != task.AwaitingInput {
		t.Fatalf("%s is %s (%s), want awaiting its pick", tk.ID, got.State, lastNote(got))
	}
	return s, got, as
}

// TestAttemptsPickLandsOneAndKeepsTheOthers: three attempts end in one
// gate with three diffstats; picking 2 lands exactly attempt 2's file,
// and the others are on no branch but still shown by their refs.
func TestAttemptsPickLandsOneAndKeepsTheOthers(t *testing.T) {
	t.Parallel()
	s, tk, as := threeAttempts(t)
	pending := tk.Pending()
	if len(pending) != 1 || !attempts.IsPick(&pending[0]) || len(pending[0].Options) != 4 {
		t.Fatalf("%s waits on %+v, want one pick of 3 attempts and none", tk.ID, pending)
	}
	for k := 1; k <= 3; k++ {
		file := "attempt" + string(rune('0'+k)) + ".txt | +1 -0"
		if strings.Count(pending[0].Context, file) != 1 {
			t.Errorf("the pick's context shows %q not once:\n%s", file, pending[0].Context)
		}
	}
	// bh land does not land an attempt: the pick does.
	if err := landTask(context.Background(), s, as[0].ID, "ann", Options{Name: "bh land"}); err == nil ||
		!strings.Contains(err.Error(), "pick it with bh respond "+tk.ID+" --pick 1") {
		t.Errorf("bh land %s: %v", as[0].ID, err)
	}
	kept := map[int]string{}
	for _, a := range as {
		kept[a.Attempt] = gitT(t, s.Root, "rev-parse", slots.Branch(a.ID))
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"2"}}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("%s is %s (%s), want closed with attempt 2 landed", tk.ID, got.State, lastNote(got))
	}
	if !exists(s.Root, "attempt2.txt") || exists(s.Root, "attempt1.txt") || exists(s.Root, "attempt3.txt") {
		t.Fatalf("the tree holds attempt1 %v, attempt2 %v, attempt3 %v: want exactly attempt 2's file",
			exists(s.Root, "attempt1.txt"), exists(s.Root, "attempt2.txt"), exists(s.Root, "attempt3.txt"))
	}
	for _, k := range []int{1, 3} {
		if on := gitT(t, s.Root, "branch", "--all", "--contains", kept[k]); on != "" {
			t.Errorf("attempt %d (%s) is still on branches %q", k, kept[k], on)
		}
		if ref := git.AttemptRef(tk.ID, k); gitT(t, s.Root, "rev-parse", ref) != kept[k] {
			t.Errorf("%s does not keep attempt %d", ref, k)
		}
	}
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	commit, base, err := attempts.Work(r, tk.ID, as[2], "master")
	if err != nil || commit != kept[3] {
		t.Fatalf("attempt 3's work is %s on %s (%v), want %s", commit, base, err, kept[3])
	}
	if d, err := r.Diff(base, commit, false); err != nil || !strings.Contains(d, "+attempt 3") {
		t.Fatalf("attempt 3's diff: %v\n%s", err, d)
	}
	// Kept a week, then gone.
	for _, days := range []int{6, 8} {
		if err := attempts.Prune(s, r, now(s).Add(time.Duration(days)*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if kept := refExists(s.Root, git.AttemptRef(tk.ID, 3)); kept != (days < 7) {
			t.Errorf("%d days on, attempt 3 kept: %v", days, kept)
		}
	}
}

// TestAttemptsNoneResumesEachInItsSession: "none of these" with feedback
// resumes all three attempts, each in its own session with the feedback,
// and asks the pick again once they ended.
func TestAttemptsNoneResumesEachInItsSession(t *testing.T) {
	t.Parallel()
	s, tk, as := threeAttempts(t)
	const feedback = "use a longer name for the file"
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{attempts.None}, Comment: feedback}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Jobs: 3, Env: []string{"HOME=" + t.TempDir()}})
	sessions := map[string]bool{}
	for _, a := range as {
		a = getTask(t, s, a.ID)
		told := gitT(t, s.Root, "show", slots.Branch(a.ID)+":resumed"+string(rune('0'+a.Attempt))+".txt")
		if !strings.Contains(told, feedback) || !strings.Contains(told, "session="+a.SessionID+" resume=1") {
			t.Errorf("attempt %d (session %s) was resumed with:\n%s", a.Attempt, a.SessionID, told)
		}
		sessions[a.SessionID] = true
	}
	if len(sessions) != 3 {
		t.Errorf("the attempts ran in sessions %v, want three of their own", sessions)
	}
	got := getTask(t, s, tk.ID)
	if pending := got.Pending(); got.State != task.AwaitingInput || len(pending) != 1 || !attempts.IsPick(&pending[0]) {
		t.Fatalf("%s is %s waiting on %+v, want the pick asked again", tk.ID, got.State, pending)
	}
}

// askingAgent asks which name to use on its first run, and writes the
// file it was told on the next.
const askingAgent = `if [ "$BH_RESUME" = 1 ]; then
  cat > answer$BH_ATTEMPT.txt
  printf '{"status":"completed","summary":"attempt %s did it"}\n' "$BH_ATTEMPT"
else
  cat >/dev/null
  echo '{"status":"needs_input","summary":"asks","question":"Which name?"}'
fi`

// TestAttemptsAskEachTheirOwnQuestions: questions an attempt asks on the
// way are asked once per attempt, on the attempt marked with its number;
// the task tried asks nothing until they all ended.
func TestAttemptsAskEachTheirOwnQuestions(t *testing.T) {
	t.Parallel()
	s, tk := tried(t, askingAgent, &task.Task{Title: "name a file", Attempts: 2}, 2)
	got := tk
	as, err := attempts.Of(s, got)
	if err != nil || len(as) != 2 || got.State != task.Open || len(got.Pending()) != 0 {
		t.Fatalf("%s is %s asking %v, with attempts %v (%v)", tk.ID, got.State, got.Pending(), as, err)
	}
	for _, a := range as {
		p := a.Pending()
		if a.State != task.AwaitingInput || len(p) != 1 || p[0].Question != "Which name?" ||
			!strings.HasPrefix(a.Title, "attempt "+string(rune('0'+a.Attempt))+"/2: ") {
			t.Fatalf("attempt %d %q is %s asking %+v, want its one question", a.Attempt, a.Title, a.State, p)
		}
		if _, err := Respond(s, a.ID, []task.Answer{{Values: []string{"name" + a.ID}}}, ""); err != nil {
			t.Fatal(err)
		}
	}
	runWith(t, s, Options{Jobs: 2, Env: []string{"HOME=" + t.TempDir()}})
	for _, a := range as {
		if told := gitT(t, s.Root, "show", slots.Branch(a.ID)+":answer"+string(rune('0'+a.Attempt))+".txt"); !strings.Contains(told, "name"+a.ID) {
			t.Errorf("attempt %d was told:\n%s", a.Attempt, told)
		}
	}
	if got := getTask(t, s, tk.ID); got.State != task.AwaitingInput || len(got.Pending()) != 1 || !attempts.IsPick(&got.Pending()[0]) {
		t.Fatalf("%s is %s asking %+v, want the pick", tk.ID, got.State, got.Pending())
	}
}

// TestAttemptsTakeWorkerSlots: attempts take worker slots as tasks do:
// with -j 2, three attempts run two at a time, each once, in the pool's
// two warm worktrees. The first two wait for each other, so two at once is what
// happens on any machine.
func TestAttemptsTakeWorkerSlots(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk, err := s.Create(&task.Task{Title: "write a file", Attempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	a := newAtOnce(t, s, 2)
	runWith(t, s, Options{Runner: agent.RunnerFunc(a.run), Jobs: 2})
	slots := map[string]bool{}
	for _, dir := range a.dirs {
		slots[dir] = true
	}
	if a.peak != 2 || a.started != 3 || len(a.runs) != 3 || len(slots) != 2 {
		t.Errorf("%d attempts ran, at most %d at once, in worktrees %v: want 3, 2 at once, in the pool's 2", a.started, a.peak, slots)
	}
	if got := getTask(t, s, tk.ID); got.State != task.AwaitingInput {
		t.Errorf("%s is %s (%s), want its pick asked", tk.ID, got.State, lastNote(got))
	}
}

// TestAttemptsOneFailedStillPicks: an attempt that fails ends too: the
// pick is asked with it marked failed, and another lands.
func TestAttemptsOneFailedStillPicks(t *testing.T) {
	t.Parallel()
	s, got := tried(t, failing(2), &task.Task{Title: "write a file", Attempts: 2}, 2)
	tk := got
	p := got.Pending()
	if got.State != task.AwaitingInput || len(p) != 1 || !strings.HasPrefix(p[0].Options[1].Description, "attempt 2: failed, ") {
		t.Fatalf("%s is %s asking %+v, want the pick with attempt 2 failed", tk.ID, got.State, p)
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"1"}}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
	if got := getTask(t, s, tk.ID); got.State != task.Closed || !exists(s.Root, "attempt1.txt") {
		t.Fatalf("%s is %s (%s), want attempt 1 landed", tk.ID, got.State, lastNote(got))
	}
}

// TestAttemptsNoHumanPicksTheBest: with human: false no one is asked: the
// worker picks the first attempt that did not fail, and lands it.
func TestAttemptsNoHumanPicksTheBest(t *testing.T) {
	t.Parallel()
	no := false
	s, got := tried(t, failing(1), &task.Task{Title: "write a file", Attempts: 3, Human: &no}, 3)
	tk := got
	if got.State != task.Closed || len(got.Questions) != 0 || !exists(s.Root, "attempt2.txt") || exists(s.Root, "attempt3.txt") {
		t.Fatalf("%s is %s (%s) asking %v: want attempt 2 landed, no one asked", tk.ID, got.State, lastNote(got), got.Questions)
	}
}

// TestAttemptsPickKeptOnItsBranch: with land: branch the pick goes on
// the task's own branch, as a single run's work would, and bh land of
// the task lands it from there; the others are kept under their refs.
func TestAttemptsPickKeptOnItsBranch(t *testing.T) {
	t.Parallel()
	s, tk := tried(t, attemptAgent, &task.Task{Title: "write a file", Attempts: 2, Land: task.LandBranch}, 2)
	as, err := attempts.Of(s, tk)
	if err != nil {
		t.Fatal(err)
	}
	picked := gitT(t, s.Root, "rev-parse", slots.Branch(as[1].ID))
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"2"}}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
	if got := getTask(t, s, tk.ID); got.State != task.Closed || exists(s.Root, "attempt2.txt") || !refExists(s.Root, git.AttemptRef(tk.ID, 1)) {
		t.Fatalf("%s is %s (%s), want closed with the pick on its branch, the other kept", tk.ID, got.State, lastNote(got))
	}
	if on := gitT(t, s.Root, "rev-parse", slots.Branch(tk.ID)); on != picked || refExists(s.Root, "refs/heads/"+slots.Branch(as[1].ID)) {
		t.Fatalf("%s is at %s, want attempt 2's %s, and no branch of the attempt's", slots.Branch(tk.ID), on, picked)
	}
	if err := landTask(context.Background(), s, tk.ID, "ann", Options{Name: "bh land"}); err != nil {
		t.Fatalf("bh land %s: %v", tk.ID, err)
	}
	if !exists(s.Root, "attempt2.txt") || exists(s.Root, "attempt1.txt") {
		t.Fatalf("bh land did not land exactly attempt 2's file: %s", gitT(t, s.Root, "log", "--stat", "--oneline", "-2"))
	}
}

// TestAttemptsPickOpensItsPullRequest: with land: pr the pick goes to the
// task's pull request as a single run's work would, through the real gh
// against the fake GitHub: the task's branch pushed with exactly attempt
// 2's file, one pull request with the attempt's summary, the task in
// review; the merge closes it.
func TestAttemptsPickOpensItsPullRequest(t *testing.T) {
	s := newStore(t)
	gh := withGitHub(t, s)
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", attemptAgent}}
	tk, err := s.Create(&task.Task{Title: "write a file", Attempts: 2, Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Jobs: 2, Env: []string{"HOME=" + t.TempDir()}})
	if got := getTask(t, s, tk.ID); got.State != task.AwaitingInput {
		t.Fatalf("%s is %s (%s), want its pick asked", tk.ID, got.State, lastNote(got))
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"2"}}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
	got := wantState(t, s, tk.ID, task.InReview)
	branch := slots.Branch(tk.ID)
	pulls := gh.Pulls()
	if len(pulls) != 1 || pulls[0].Head != branch || got.PullRequest() != "http://github.localhost/owner/repo/pull/1" ||
		!strings.Contains(pulls[0].Body, "attempt 2 did it") || !strings.Contains(pulls[0].Body, "bh-task: "+tk.ID) {
		t.Fatalf("pulls %+v, task's PR %q", pulls, got.PullRequest())
	}
	if files := gitT(t, bare, "ls-tree", "--name-only", branch); !strings.Contains(files, "attempt2.txt") ||
		strings.Contains(files, "attempt1.txt") || exists(s.Root, "attempt2.txt") {
		t.Fatalf("the pushed %s holds %q: want exactly attempt 2's file, none in the user's tree", branch, files)
	}
	if !refExists(s.Root, git.AttemptRef(tk.ID, 1)) {
		t.Errorf("attempt 1 is not kept")
	}
	// A review comment resumes the picked attempt's session on the task's
	// branch, whose new work goes to the same pull request.
	session := attemptsOf(t, s, got)[1].SessionID
	gh.Edit(1, func(p *Pull) {
		p.SHA = gitT(t, s.Root, "rev-parse", branch)
		p.Checks = []CheckRun{{ID: 12, Name: "test", Conclusion: "success"}}
		p.Comments = []ReviewComment{{ID: 21, Path: "attempt2.txt", Line: 1, Body: "Say more.", User: "rev"}}
	})
	shepherdT(t, s)
	wantState(t, s, tk.ID, task.Open)
	runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
	wantState(t, s, tk.ID, task.InReview)
	told := gitT(t, bare, "show", branch+":resumed.txt")
	if !strings.Contains(told, "Say more.") || !strings.Contains(told, "session="+session+" resume=1") || len(gh.Pulls()) != 1 {
		t.Fatalf("the review round (attempt 2's session %s) was told:\n%s\nwith %d pulls", session, told, len(gh.Pulls()))
	}
	gh.Edit(1, func(p *Pull) { p.Merged, p.State = true, "closed" })
	shepherdT(t, s)
	wantState(t, s, tk.ID, task.Closed)
}

func attemptsOf(t *testing.T, s *store.Store, tk *task.Task) []*task.Task {
	t.Helper()
	as, err := attempts.Of(s, tk)
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// TestAttemptsPickToAPullRequestChecksOnTheRemote: with land: pr the pick
// is caught up with the remote's base and checked there before its pull
// request opens, as a single run's is: a check that fails on that tree
// opens none and asks the pick again, saying why.
func TestAttemptsPickToAPullRequestChecksOnTheRemote(t *testing.T) {
	s := newStore(t)
	gh := withGitHub(t, s)
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", attemptAgent}}
	s.Config.Checks = []string{"! test -e remote.txt"}
	tk, err := s.Create(&task.Task{Title: "write a file", Attempts: 2, Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Jobs: 2, Env: []string{"HOME=" + t.TempDir()}})
	wantState(t, s, tk.ID, task.AwaitingInput)
	// Meanwhile the remote's base gains what the check refuses.
	clone := t.TempDir()
	gitT(t, clone, "clone", "-q", gitT(t, s.Root, "remote", "get-url", "origin"), ".")
	writeFile(t, clone, "remote.txt", "from the remote\n")
	gitT(t, clone, "add", "remote.txt")
	gitT(t, clone, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "remote")
	gitT(t, clone, "push", "-q", "origin", "HEAD:"+gitT(t, s.Root, "rev-parse", "--abbrev-ref", "HEAD"))
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"2"}}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
	got := wantState(t, s, tk.ID, task.AwaitingInput)
	if p := got.Pending(); len(p) != 1 || !attempts.IsPick(&p[0]) || !strings.Contains(lastNote(got), "attempt 2 did not land: check ! test -e remote.txt") ||
		len(gh.Pulls()) != 0 {
		t.Fatalf("%s waits on %+v (%s) with %d pulls: want the pick asked again, none opened", tk.ID, p, lastNote(got), len(gh.Pulls()))
	}
}

// TestClaudePickedPullRequestResumesTheAttempt: the real Claude Code CLI
// against the fake API: two attempts, attempt 2 picked with land: pr; a
// failed check on the task's pull request resumes attempt 2's session,
// whose request carries attempt 2's earlier turns, and its fix goes to the
// same pull request.
func TestClaudePickedPullRequestResumesTheAttempt(t *testing.T) {
	fakeapi.Real(t, "claude")
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		k := "1"
		if strings.Contains(req.Prompt(), "attempt 2/2") {
			k = "2"
		}
		switch p := req.Prompt(); {
		case strings.Contains(p, "--- FAIL: TestHello") && len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("fixed.txt", "fixed\n"))
		case strings.Contains(p, "--- FAIL: TestHello"):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "fixed the test"}))
		case len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("attempt"+k+".txt", "attempt "+k+"\n"))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "attempt " + k + " did it"}))
	})
	s := newStore(t)
	gh := withGitHub(t, s)
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	opt := Options{Jobs: 2, Env: fakeapi.Env(t, srv)}
	tk, err := s.Create(&task.Task{Title: "Say hello", Attempts: 2, Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	got := wantState(t, s, tk.ID, task.AwaitingInput)
	second := attemptsOf(t, s, got)[1]
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"2"}}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	got = wantState(t, s, tk.ID, task.InReview)
	if got.SessionID != second.SessionID || len(gh.Pulls()) != 1 {
		t.Fatalf("%s in review in session %s with %d pulls: want attempt 2's session %s and one pull",
			tk.ID, got.SessionID, len(gh.Pulls()), second.SessionID)
	}
	gh.Edit(1, func(p *Pull) {
		p.Checks = []CheckRun{{ID: 11, Name: "test", Conclusion: "failure",
			Log: "--- FAIL: TestHello (0.00s)\n    hello_test.go:9: no greeting\n"}}
	})
	shepherdT(t, s)
	n := len(srv.Requests())
	runWith(t, s, opt)
	got = wantState(t, s, tk.ID, task.InReview)
	resumed := srv.Requests()[n] // the first request of the resumed run
	if !strings.Contains(resumed.Prompt(), "hello_test.go:9: no greeting") || got.SessionID != second.SessionID {
		t.Fatalf("session %s -> %s; resumed request's prompt:\n%s", second.SessionID, got.SessionID, resumed.Prompt())
	}
	if calls := resumed.ToolUses(); len(calls) == 0 || calls[0].Name != "Write" ||
		!strings.Contains(string(calls[0].Input), "attempt2.txt") {
		t.Errorf("the resumed request lacks attempt 2's earlier turns: %+v", calls)
	}
	if files := gitT(t, bare, "ls-tree", "--name-only", slots.Branch(tk.ID)); !strings.Contains(files, "fixed.txt") ||
		!strings.Contains(files, "attempt2.txt") || strings.Contains(files, "attempt1.txt") || len(gh.Pulls()) != 1 {
		t.Fatalf("the pull request's branch holds %q (%d pulls)", files, len(gh.Pulls()))
	}
}

// planningAgent plans read-only (BH_PHASE=plan) and, resumed once its plan
// is approved, writes down what it was told and its session.
const planningAgent = `if [ "$BH_PHASE" = plan ]; then
  cat >/dev/null
  printf '{"status":"completed","summary":"a plan","details":"1. write impl%s.txt"}\n' "$BH_ATTEMPT"
else
  { cat; echo "session=$BH_SESSION_ID resume=$BH_RESUME"; } > impl$BH_ATTEMPT.txt
  printf '{"status":"completed","summary":"attempt %s did it"}\n' "$BH_ATTEMPT"
fi`

// TestAttemptsEachPlanThenCarryOutTheirOwnPlan: with plan: true each
// attempt plans in its own session, its plan waiting on the human marked
// with its number; approved, the same session carries it out, and the
// pick comes once they all ended.
func TestAttemptsEachPlanThenCarryOutTheirOwnPlan(t *testing.T) {
	t.Parallel()
	yes := true
	s, tk := tried(t, planningAgent, &task.Task{Title: "write a file", Attempts: 2, Plan: &yes}, 2)
	as, err := attempts.Of(s, tk)
	if err != nil || len(as) != 2 || tk.State != task.Open {
		t.Fatalf("%s is %s, with attempts %v (%v)", tk.ID, tk.State, as, err)
	}
	for _, a := range as {
		q := planQuestion(t, a)
		if want := fmt.Sprintf("1. write impl%d.txt", a.Attempt); q.Plan != want ||
			!strings.HasPrefix(a.Title, fmt.Sprintf("attempt %d/2: ", a.Attempt)) {
			t.Fatalf("attempt %d %q waits on the plan %q, want %q", a.Attempt, a.Title, q.Plan, want)
		}
		if _, err := Respond(s, a.ID, []task.Answer{{QuestionID: q.ID, Values: []string{"yes"}}}, ""); err != nil {
			t.Fatal(err)
		}
	}
	runWith(t, s, Options{Jobs: 2, Env: []string{"HOME=" + t.TempDir()}})
	for _, a := range as {
		told := gitT(t, s.Root, "show", slots.Branch(a.ID)+fmt.Sprintf(":impl%d.txt", a.Attempt))
		if !strings.Contains(told, fmt.Sprintf("1. write impl%d.txt", a.Attempt)) ||
			!strings.Contains(told, "session="+a.SessionID+" resume=1") {
			t.Errorf("attempt %d (session %s) carried out:\n%s", a.Attempt, a.SessionID, told)
		}
	}
	if got := getTask(t, s, tk.ID); got.State != task.AwaitingInput || len(got.Pending()) != 1 || !attempts.IsPick(&got.Pending()[0]) {
		t.Fatalf("%s is %s asking %+v, want the pick", tk.ID, got.State, got.Pending())
	}
}
