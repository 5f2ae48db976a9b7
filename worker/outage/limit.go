package outage

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// Hold is an account's usage limit reached: no run of that account's
// starts before ResetsAt (nor after it, until a human resumes, without
// limits.autoResume). It travels as refs/bh/limits/<agent>/<account>,
// so that every machine sharing the remote holds off without trying.
type Hold struct {
	ResetsAt time.Time `json:"resetsAt"`
	Window   string    `json:"window,omitempty"`
	Status   string    `json:"status"`
	By       string    `json:"by,omitempty"`
}

// LimitsRefspec fetches the remote's holds beside bh's own.
const LimitsRefspec = "+refs/bh/limits/*:" + git.RemoteRefs + "limits/*"

const holdFile = "limit.json"

// HoldRef is where the hold of agentName's account is kept; a ref's name
// may not hold a colon (command:<name>).
func HoldRef(agentName, account string) string {
	clean := func(s string) string { return strings.NewReplacer(":", "-", "/", "-", " ", "-").Replace(s) }
	return "refs/bh/limits/" + clean(agentName) + "/" + clean(account)
}

// Live reports whether h still holds runs back at now.
func (h *Hold) Live(now time.Time, autoResume bool) bool {
	return h != nil && (now.Before(h.ResetsAt) || !autoResume)
}

// Says is the hold in words, its reset in local time: "paused by the
// five-hour usage limit until 15:00".
func (h Hold) Says(now time.Time) string {
	if !now.Before(h.ResetsAt) {
		return "paused by the " + Window(h.Window) + " since its reset at " + clock(h.ResetsAt, now) + ": bh worker --resume goes on"
	}
	return "paused by the " + Window(h.Window) + " until " + clock(h.ResetsAt, now)
}

// clock is t in local time, with its day when it is not near now.
func clock(t, now time.Time) string {
	if d := t.Sub(now); d > 20*time.Hour || d < -20*time.Hour {
		return t.Local().Format("Jan 2 15:04")
	}
	return t.Local().Format("15:04")
}

// Window names a limit's window in words: five_hour is the five-hour
// usage limit, seven_day_opus the seven-day opus usage limit.
func Window(w string) string {
	if w == "" {
		return "usage limit"
	}
	w = strings.Replace(w, "_", "-", 1)
	return strings.ReplaceAll(w, "_", " ") + " usage limit"
}

// Event is the history's line for a run the limit cut short ("": none).
func (h *Hold) Event() string {
	if h == nil {
		return ""
	}
	return fmt.Sprintf("%s; resets %s", Window(h.Window), h.ResetsAt.UTC().Format(time.RFC3339))
}

// HoldOf is the hold a limit's report makes, by worker; nil when it
// holds nothing back or its reset is unknown (then the outage backs off).
func HoldOf(l *agent.Limit, by string, now time.Time) *Hold {
	if l == nil || l.Status != agent.LimitRejected || !l.ResetsAt.After(now) {
		return nil
	}
	return &Hold{ResetsAt: l.ResetsAt.UTC(), Window: l.Window, Status: l.Status, By: by}
}

// HoldFrom is the hold of a run the usage limit cut short (err), nil
// when err is no such run or says no reset.
func HoldFrom(err error, by string, now time.Time) *Hold {
	var re *agent.RunError
	if !errors.As(err, &re) || re.Outage != agent.OutageLimit {
		return nil
	}
	return HoldOf(re.Limit, by, now)
}

// Keep writes h as ref here.
func Keep(r *git.Repo, ref string, h Hold) error {
	b, _ := json.Marshal(h)
	c, err := r.CommitFile("", holdFile, b, "bh: "+h.Event())
	if err == nil {
		err = r.SetRef(ref, c, "bh: usage limit")
	}
	return err
}

// Held is the hold of ref that holds runs back at now: this machine's own
// or the remote's (as last fetched), the later to reset; nil when none.
func Held(r *git.Repo, ref string, now time.Time, autoResume bool) *Hold {
	var held *Hold
	for _, name := range []string{ref, git.RemoteCopy(ref)} {
		h := readHold(r, name)
		if h.Live(now, autoResume) && (held == nil || h.ResetsAt.After(held.ResetsAt)) {
			held = h
		}
	}
	return held
}

func readHold(r *git.Repo, ref string) *Hold {
	c, err := r.Ref(ref)
	if err != nil || c == "" {
		return nil
	}
	b, err := r.FileAt(c, holdFile)
	var h Hold
	if err != nil || json.Unmarshal(b, &h) != nil {
		return nil
	}
	return &h
}

// Share pushes this machine's live holds to remote and drops the expired
// ones, here and there.
func Share(r *git.Repo, remote string, now time.Time, autoResume bool) error {
	refs, err := r.Refs("refs/bh/limits/")
	if err != nil {
		return err
	}
	for ref := range refs {
		if readHold(r, ref).Live(now, autoResume) {
			err = handOver(r, remote, ref)
		} else {
			err = Drop(r, remote, ref)
		}
		if err != nil {
			return err
		}
	}
	seen, err := r.Refs(git.RemoteCopy("refs/bh/limits/"))
	for ref := range seen { // the remote's expired holds, this machine's once
		if err == nil && !readHold(r, ref).Live(now, autoResume) {
			err = Drop(r, remote, "refs/bh/"+strings.TrimPrefix(ref, git.RemoteRefs))
		}
	}
	return err
}

// handOver pushes this machine's hold of ref and keeps it as the remote's
// copy only: from then on the remote's is the hold, so a --resume on any
// machine deletes it there and every fetch (--prune) drops it here, rather
// than this machine pushing it back at its next sync.
func handOver(r *git.Repo, remote, ref string) error {
	c, err := r.Ref(ref)
	if err == nil {
		err = r.PushRefs(remote, ref)
	}
	if err == nil {
		err = r.SetRef(git.RemoteCopy(ref), c, "bh: usage limit shared")
	}
	if err == nil {
		err = r.DeleteRef(ref)
	}
	return err
}

// Drop removes the hold of ref here and, with a remote, there.
func Drop(r *git.Repo, remote, ref string) error {
	seen, err := r.Ref(git.RemoteCopy(ref))
	mine, _ := r.Ref(ref)
	if was := cmp.Or(seen, mine); err == nil && was != "" && remote != "" {
		// A newer hold of another machine's there is ErrStale: it stays.
		if err = r.PushCAS(remote, ref, "", was); errors.Is(err, git.ErrStale) {
			err = nil
		}
	}
	if err == nil {
		err = r.DeleteRef(git.RemoteCopy(ref))
	}
	if err == nil {
		err = r.DeleteRef(ref)
	}
	return err
}

// Resume ends the usage limits' pauses known here (bh worker --resume, the
// board's and the web's button), here and on the shared remote, and the
// backoff's: the queue goes on at once.
func Resume(s *store.Store) error {
	r, err := git.Open(s.Root)
	if err != nil {
		return err
	}
	remote := cmp.Or(s.Config.Remote, "origin")
	if r.RemoteURL(remote) == "" {
		remote = ""
	}
	refs, err := r.Refs("refs/bh/limits/")
	if err != nil {
		return err
	}
	seen, err := r.Refs(git.RemoteCopy("refs/bh/limits/"))
	if err != nil {
		return err
	}
	for ref := range seen {
		refs["refs/bh/"+strings.TrimPrefix(ref, git.RemoteRefs)] = ""
	}
	for ref := range refs {
		if err := Drop(r, remote, ref); err != nil {
			return err
		}
	}
	return Record(s, "", nil)
}

// HeldNow is the usage limit's hold on s's configured agent and the
// account of this environment's credentials, as known here, that holds
// runs back at now; nil when none (for bh status, the board, the web).
func HeldNow(s *store.Store, now time.Time) *Hold {
	r, err := git.Open(s.Root)
	if err != nil {
		return nil
	}
	return Held(r, AccountRef(s.Config.Agent.Name(), nil), now, AutoResume(s.Config))
}

// HoldsBack says, in words, what holds s's queue back at now: the usage
// limit's hold, else the worker's recorded pause (a backoff, the day's
// budget); "" when nothing does (for the board and the web).
func HoldsBack(s *store.Store, now time.Time) string {
	if h := HeldNow(s, now); h != nil {
		return h.Says(now)
	}
	if p := PausedNow(s, now); p != nil {
		return "paused until " + clock(p.Until, now) + ": " + p.Reason
	}
	return ""
}

// AccountRef is the hold's ref of agentName's account that env's
// credentials name (over the process's); an account bh cannot tell (a
// command agent's) is one: "unknown".
func AccountRef(agentName string, env []string) string {
	return HoldRef(agentName, cmp.Or(agent.AccountOf(env, agentName), "unknown"))
}
