package claims

import (
	"time"

	"github.com/bh-tracker/bh/task"
)

// Handing a claim to another process (a task's own pod, worker/kube): the
// holder pushes a hand-over claim for it (PID 0: no process of any host
// reads it as its own) lasting ttl, and gives it the claim commit, the
// token. The receiver takes the claim by a compare-and-swap push from
// exactly that commit (Accept), the giver takes it back the same way
// (TakeBack): of the two pushes one wins, so the task runs in one place,
// or in none until the hand-over claim runs out.

// HandOver pushes id's hand-over claim for to, from the claim held here,
// and returns its commit: the token.
func (c *Remote) HandOver(id string, to task.Lease, ttl time.Duration) (string, error) {
	c.op.Lock()
	defer c.op.Unlock()
	if err := c.push(id, c.Mine(id), Held, to, ttl); err != nil {
		return "", err
	}
	return c.Mine(id), nil
}

// TakeBack releases id's claim from the hand-over claim pushed here.
// ErrClaimed: the receiver took it, and holds it until its lease runs out.
func (c *Remote) TakeBack(id string, lease task.Lease) error {
	c.op.Lock()
	defer c.op.Unlock()
	return c.release(id, lease, false)
}

// Accept lets this process take id's claim from the hand-over claim
// token, held as it is by another; and hands it back only once the task
// file and the work are on the remote, closed or not (Unclaim): the
// giver reads the claim's release as the end of the receiver's run.
func (c *Remote) Accept(id, token string) {
	if token == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.handed == nil {
		c.handed = map[string]string{}
	}
	c.handed[id] = token
}

// mayTake reports whether lease may take id's claim, at old (cl): one
// handed to this process from its token alone, any other when free.
func (c *Remote) mayTake(id, old string, cl *RemoteClaim, lease task.Lease) bool {
	if token := c.accepted(id); token != "" {
		return old == token
	}
	return c.free(cl, lease)
}

func (c *Remote) accepted(id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.handed[id]
}

// Current is id's claim as last fetched: its commit and contents; ""
// and nil for none.
func (c *Remote) Current(id string) (string, *RemoteClaim, error) { return c.seen(id) }
