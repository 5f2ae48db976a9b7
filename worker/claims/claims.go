// Package claims is bh's claim protocol: who runs a task. A task is
// claimed in its file under the task's lock (local), and with a shared
// remote first by a compare-and-swap push of its claim ref; a run's lease
// is renewed by heartbeats, handed off once its task file is shared, and
// adopted when its worker died.
package claims

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// Claims across machines (remote: in the config): the remote accepts the
// compare-and-swap push of refs/bh/claims/<id> from one machine only. The
// ref holds claim.json: who holds it and until when. A holder renews its
// lease by pushing again; a lease that ran out may be taken over; a claim
// ends released (the task may be taken again once ready) or done (the task
// closed: never again, even on a machine that has not synced yet).

// Ref is where task id's claim lives on the shared remote.
func Ref(id string) string { return "refs/bh/claims/" + id }

// Seen is bh's copy of the remote's claims, as last fetched.
const Seen = git.RemoteRefs + "claims/"

// Refspec fetches the remote's claims into Seen.
const Refspec = "+refs/bh/claims/*:" + Seen + "*"

// Claim states.
const (
	Held     = "held"
	Released = "released"
	Done     = "done"
)

// RemoteClaim is what a claim ref holds. Its field names are bh's
// interface across versions and machines.
type RemoteClaim struct {
	Task    string    `json:"task"`
	State   string    `json:"state"`
	Worker  string    `json:"worker"`
	Host    string    `json:"host"`
	PID     int       `json:"pid"`
	Clone   string    `json:"clone"` // the repository's path on Host: which clone's work it is
	Expires time.Time `json:"expires"`
}

// ErrClaimed is a task another machine holds (or finished).
var ErrClaimed = errors.New("claimed on another machine")

// Remote talks to the shared remote for one process.
type Remote struct {
	repo   *git.Repo
	clone  string // this clone's path
	remote string
	ttl    time.Duration
	now    func() time.Time
	mu     sync.Mutex
	held   map[string]string // task id -> the claim commit we pushed last
	// waits holds the claims of runs that ended with the task not closed:
	// held until the task file with its new state is on the remote (handoff.go).
	waits map[string]bool
	op    sync.Mutex // a claim taken again is never released by a hand-off under way
	// Files is where this clone keeps the work and sessions a claim
	// carries between machines; the worker's to give.
	Files Files
	// Warn says what failed but is retried (a renewal, a hand-off).
	Warn func(format string, args ...any)
}

// NewRemote talks to remote through r; its claims last ttl.
func NewRemote(r *git.Repo, remote string, ttl time.Duration, now func() time.Time) *Remote {
	return &Remote{repo: r, clone: r.Root, remote: remote, ttl: ttl, now: now, held: map[string]string{},
		waits: map[string]bool{}, Warn: func(string, ...any) {}}
}

// Fetch brings the remote's claims; each is then read from Seen.
func (c *Remote) Fetch() error {
	return c.repo.Fetch(c.remote, Refspec) // refs/bh only: no remote-tracking branch moves
}

// seen is the claim of id as last fetched: its commit and contents; ""
// when there was none.
func (c *Remote) seen(id string) (string, *RemoteClaim, error) {
	oid, err := c.repo.Ref(Seen + id)
	if err != nil || oid == "" {
		return "", nil, err
	}
	cl, err := c.Read(oid)
	return oid, cl, err
}

// Read is the claim a claim commit holds.
func (c *Remote) Read(oid string) (*RemoteClaim, error) {
	b, err := c.repo.FileAt(oid, "claim.json")
	if err != nil {
		return nil, err
	}
	var cl RemoteClaim
	if err := json.Unmarshal(b, &cl); err != nil {
		return nil, fmt.Errorf("claim %s: %w", oid[:7], err)
	}
	return &cl, nil
}

// free reports whether cl lets lease take the task: none, released, run
// out, this very worker's, or a worker's of this host that died.
func (c *Remote) free(cl *RemoteClaim, lease task.Lease) bool {
	switch {
	case cl == nil || cl.State == Released:
		return true
	case cl.State == Done:
		return false
	case cl.Host == lease.Host && cl.PID != 0 && (cl.PID == lease.PID && cl.Worker == lease.Worker || !alive(cl.PID)):
		return true
	}
	return c.now().After(cl.Expires)
}

// take claims id on the remote for lease, from what was last fetched.
// ErrClaimed: it is held, done, or another machine took it first.
func (c *Remote) take(id string, lease task.Lease) (*RemoteClaim, error) {
	c.op.Lock()
	defer c.op.Unlock()
	old, cl, err := c.seen(id)
	if err != nil {
		return nil, err
	}
	if !c.free(cl, lease) {
		return cl, ErrClaimed
	}
	if err := c.Push(id, old, Held, lease); err != nil {
		return cl, err
	}
	c.mu.Lock()
	delete(c.waits, id) // run again here: the new run's end decides
	c.mu.Unlock()
	return cl, nil
}

// release ends our claim: done for a closed task, else released.
func (c *Remote) release(id string, lease task.Lease, done bool) error {
	state := Released
	if done {
		state = Done
	}
	err := c.Push(id, c.Mine(id), state, lease)
	c.mu.Lock()
	delete(c.held, id)
	delete(c.waits, id)
	c.mu.Unlock()
	return err
}

// Mine is the claim commit this process pushed last for id; "" when it
// holds none.
func (c *Remote) Mine(id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held[id]
}

// Push replaces the claim at old (""= none) with a new one; renewing
// ours, ErrClaimed says another machine took the task over meanwhile.
func (c *Remote) Push(id, old, state string, lease task.Lease) error {
	return c.push(id, old, state, lease, c.ttl)
}

func (c *Remote) push(id, old, state string, lease task.Lease, ttl time.Duration) error {
	cl := RemoteClaim{Task: id, State: state, Worker: lease.Worker, Host: lease.Host, PID: lease.PID, Clone: c.clone,
		Expires: c.now().Add(ttl).UTC().Truncate(time.Second)}
	b, _ := json.MarshalIndent(cl, "", "  ")
	msg := fmt.Sprintf("bh: %s %s by %s on %s\n", id, state, lease.Worker, lease.Host)
	oid, err := c.repo.CommitFile("", "claim.json", append(b, '\n'), msg)
	if err != nil {
		return fmt.Errorf("claim %s: %w", id, err)
	}
	if err := c.repo.PushCAS(c.remote, Ref(id), oid, old); err != nil {
		if errors.Is(err, git.ErrStale) {
			return fmt.Errorf("claim %s: %w", id, ErrClaimed)
		}
		return fmt.Errorf("claim %s: %w", id, err)
	}
	c.mu.Lock()
	if state == Held {
		c.held[id] = oid
	}
	c.mu.Unlock()
	c.repo.SetRef(Seen+id, oid, "bh claim") // our view follows what we pushed
	return nil
}

// Describe says who holds a claim, for messages.
func (cl *RemoteClaim) Describe() string {
	if cl == nil {
		return "nobody"
	}
	return strings.TrimSpace(fmt.Sprintf("%s on %s (%s until %s)", cl.Worker, cl.Host, cl.State, cl.Expires.Format(time.RFC3339)))
}
