package cmd

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// tickEvery is how often long runs are reported as still going.
const tickEvery = 30 * time.Second

// startTick notes that id's agent runs, and starts the reminder, every
// p.every, of which agents run and for how long, so that quiet agents do
// not look like a hung worker. The caller holds p.mu.
func (p *progress) startTick(id string) {
	if p.started == nil {
		p.started = map[string]time.Time{}
	}
	p.started[id] = time.Now()
	if !slices.Contains(p.running, id) {
		p.running = append(p.running, id)
	}
	if p.json || p.tickDone != nil {
		return
	}
	every, done := cmp.Or(p.every, tickEvery), make(chan struct{})
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
					var parts []string
					for _, id := range p.running {
						parts = append(parts, fmt.Sprintf("%s running for %s", id, elapsed(time.Since(p.started[id]))))
					}
					fmt.Fprintln(p.w, p.io.Faint("  … "+strings.Join(parts, ", ")))
				}
				p.mu.Unlock()
			}
		}
	}()
}

// stopTick notes that id's run ended, and stops the reminders when no
// agent runs any more. The caller holds p.mu.
func (p *progress) stopTick(id string) {
	p.running = slices.DeleteFunc(p.running, func(r string) bool { return r == id })
	delete(p.started, id)
	if len(p.running) == 0 && p.tickDone != nil {
		close(p.tickDone)
		p.tickDone = nil
	}
}
