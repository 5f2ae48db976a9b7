package cmd

import (
	"fmt"
	"time"
)

// tickEvery is how often a long run is reported as still going.
const tickEvery = 30 * time.Second

// startTick reminds the reader, every p.every, which task's agent runs and
// for how long, so a quiet agent does not look like a hung worker. The
// caller holds p.mu.
func (p *progress) startTick(id string) {
	p.stopTick()
	if p.json {
		return
	}
	every := p.every
	if every == 0 {
		every = tickEvery
	}
	done, start := make(chan struct{}), time.Now()
	p.tickDone = done
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.mu.Lock()
				select {
				case <-done: // finished while we waited for the lock
				default:
					fmt.Fprintln(p.w, p.io.Faint(fmt.Sprintf("  … %s running for %s", id, elapsed(time.Since(start)))))
				}
				p.mu.Unlock()
			}
		}
	}()
}

// stopTick ends the reminders of the last run. The caller holds p.mu.
func (p *progress) stopTick() {
	if p.tickDone != nil {
		close(p.tickDone)
		p.tickDone = nil
	}
}
