package cmd

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/ending"
)

// progress turns the worker's events into lines for a reader (stderr for
// bh worker, stdout for bh demo) or, with --json, into JSON lines on stdout.
type progress struct {
	io     *IOStreams
	w      io.Writer
	json   bool
	lookup func(string) (*task.Task, error) // the task behind an event; may be nil

	mu      sync.Mutex           // events and Ctrl-C notices come from different goroutines
	running []string             // the tasks whose agents run now, in the order they started
	started map[string]time.Time // when each of them started
	revived map[string]bool      // tasks recovered from a dead worker, until their run ends
	ran     int                  // tasks taken

	every    time.Duration // how often a running task is reported; 0: tickEvery
	tickDone chan struct{} // closed when the running task finishes
}

func (p *progress) report(e worker.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Kind {
	case worker.Recovered:
		if p.revived == nil {
			p.revived = map[string]bool{}
		}
		p.revived[e.Task] = true
	case worker.Started:
		p.ran++
		p.startTick(e.Task)
	case worker.Finished:
		if _, ok := p.started[e.Task]; !ok {
			p.ran++ // an approved commit or a landing decision: no agent started
		}
		p.stopTick(e.Task)
	}
	if p.json {
		p.writeJSON(p.eventLine(e))
		return
	}
	p.human(e)
}

// interrupted tells what a Ctrl-C does now; force is the second one.
func (p *progress) interrupted(force bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		p.writeJSON(eventLine{Kind: "stopping", At: time.Now().UTC(), TaskID: strings.Join(p.running, ","), Force: force})
		return
	}
	ids := strings.Join(p.running, ", ")
	switch {
	case ids == "":
		fmt.Fprintln(p.w, p.io.Yellow("stopping"))
	case !force:
		fmt.Fprintln(p.w, p.io.Yellow(fmt.Sprintf("finishing %s, press Ctrl-C again to stop it", ids)))
	default:
		fmt.Fprintln(p.w, p.io.Yellow(fmt.Sprintf("stopping %s: its work will be parked", ids)))
	}
}

func (p *progress) human(e worker.Event) {
	io, w, id := p.io, p.w, p.io.Cyan(e.Task)
	switch e.Kind {
	case worker.Waiting:
		fmt.Fprintln(w, io.Faint("waiting for ready tasks…"))
	case worker.Recovered:
		fmt.Fprintf(w, "↺ %s recovered: %s\n", id, strings.TrimPrefix(e.Summary, "recovered: "))
	case worker.Answered:
		fmt.Fprintf(w, "✎ %s answered: %q\n", id, e.Summary)
	case worker.Expired:
		p.expired(e)
	case worker.Step:
		fmt.Fprintf(w, "%s\n", io.Faint("  · "+e.Task+" "+e.Summary))
	case worker.Paused:
		fmt.Fprintf(w, "%s %s\n", io.Yellow("⏸"), e.Summary)
	case worker.Synced:
		fmt.Fprintf(w, "%s\n", io.Faint("⇅ "+e.Summary))
	case worker.Warning:
		// A warning is trouble, not progress: stderr even for bh demo.
		fmt.Fprintf(io.ErrOut, "bh: warning: %s\n", e.Summary)
	case worker.Started:
		line := fmt.Sprintf("%s %s %s", io.Cyan("▶"), id, io.Bold(e.Title))
		if e.Resume {
			line += io.Faint(fmt.Sprintf(" (resuming session %.8s…)", e.Session))
		}
		fmt.Fprintln(w, line)
	case worker.Finished:
		p.finished(e)
		delete(p.revived, e.Task)
	}
}

// finished writes how a run ended, by the kind of its outcome.
func (p *progress) finished(e worker.Event) {
	switch e.Outcome {
	case ending.Completed, ending.Kept, ending.InReview:
		p.done(e)
	case ending.Held, ending.Conflict, ending.NeedsInput, ending.Gated:
		p.asks(e)
	case ending.Failed, ending.Unavailable, ending.SetupFailed, ending.AgentError, ending.Blocked:
		p.failed(e)
	case ending.Stopped:
		p.stopped(e)
	default:
		fmt.Fprintf(p.w, "%s %s: %s\n", p.io.Cyan(e.Task), e.Outcome, e.Summary)
	}
}

// parked names the files of the work the run left parked, if any.
func (p *progress) parked(e worker.Event) {
	if len(e.Paths) > 0 {
		fmt.Fprintf(p.w, "  parked: %s %s\n", strings.Join(e.Paths, ", "), p.io.Faint("(bh diff "+e.Task+")"))
	}
}

// done writes a run whose work is done: landed, kept or in review.
func (p *progress) done(e worker.Event) {
	io, w, id, took := p.io, p.w, p.io.Cyan(e.Task), elapsed(e.Elapsed)
	switch e.Outcome {
	case ending.Completed:
		line := fmt.Sprintf("%s %s completed in %s", io.Green("✓"), id, took)
		if e.Summary != "" {
			line += " — " + e.Summary
		}
		if e.Commit != "" {
			line += io.Faint(fmt.Sprintf(" (commit %.7s)", e.Commit))
		}
		fmt.Fprintln(w, line)
	case ending.Kept:
		if e.Attempt > 0 {
			fmt.Fprintf(w, "%s %s completed in %s — attempt %d, kept on branch bh/%s for the pick\n", io.Green("✓"), id, took,
				e.Attempt, e.Task)
			return
		}
		fmt.Fprintf(w, "%s %s completed in %s — kept on branch bh/%s%s\n", io.Green("✓"), id, took, e.Task,
			io.Faint(fmt.Sprintf(" (commit %.7s; land it with: bh land %s)", e.Commit, e.Task)))
	case ending.InReview:
		fmt.Fprintf(w, "%s %s completed in %s — in review: %s%s\n", io.Cyan("⇅"), id, took, e.PR,
			io.Faint(fmt.Sprintf(" (commit %.7s on bh/%s; the worker shepherds it)", e.Commit, e.Task)))
	}
}

// asks writes a run that ended waiting on the human.
func (p *progress) asks(e worker.Event) {
	io, w, id := p.io, p.w, p.io.Cyan(e.Task)
	switch e.Outcome {
	case ending.Held:
		fmt.Fprintf(w, "%s %s is done, but git would not land it over your uncommitted changes\n", io.Magenta("❓"), id)
		fmt.Fprintf(w, "  %s\n", e.Summary)
		fmt.Fprintf(w, "  %s\n", io.Faint(fmt.Sprintf("commit or stash them, then: bh land %s | keep it on its branch: bh respond %s --choice keep",
			e.Task, e.Task)))
	case ending.Conflict:
		if len(e.Questions) == 0 { // the agent resolves it: the task is open again
			fmt.Fprintf(w, "↻ %s %s\n", id, e.Summary)
			return
		}
		fmt.Fprintf(w, "%s %s needs human input: %s\n", io.Magenta("❓"), id, e.Summary)
		p.questions(e)
		p.answerWith(e.Task)
	case ending.NeedsInput:
		fmt.Fprintf(w, "%s %s needs human input\n", io.Magenta("❓"), id)
		p.questions(e)
		p.parked(e)
		p.answerWith(e.Task)
	case ending.Gated:
		p.gated(e)
		p.parked(e)
		p.answerWith(e.Task)
	}
}

// failed writes a run that failed or could not run.
func (p *progress) failed(e worker.Event) {
	io, w, id, took := p.io, p.w, p.io.Cyan(e.Task), elapsed(e.Elapsed)
	switch e.Outcome {
	case ending.Failed:
		fmt.Fprintf(w, "%s %s failed in %s: %s\n", io.Red("✗"), id, took, e.Summary)
		if e.Summary == ending.NoHumanSummary { // its work is parked, not rolled back
			p.questions(e)
			p.parked(e)
			fmt.Fprintf(w, "  %s\n", io.Faint("to let it ask: bh update "+e.Task+" --human=true && bh reopen "+e.Task))
		} else if len(e.Paths) > 0 {
			fmt.Fprintf(w, "  discarded: %s\n", strings.Join(e.Paths, ", "))
		}
	case ending.Unavailable:
		fmt.Fprintf(w, "⏸ %s not run: %s; it is open again, not failed\n", id, e.Summary)
		p.parked(e)
	case ending.SetupFailed:
		fmt.Fprintf(w, "%s %s failed: %s\n", io.Red("✗"), id, e.Summary)
		fmt.Fprintf(w, "  %s\n", io.Faint("fix worktree.copy or worktree.setup in .bh/config.yaml, then: bh reopen "+e.Task))
	case ending.AgentError:
		fmt.Fprintf(w, "%s %s failed in %s: agent error: %s\n", io.Red("✗"), id, took, e.Summary)
		if l := p.runLog(e); l != "" {
			fmt.Fprintf(w, "  run log: %s\n", l)
		}
		p.parked(e)
	case ending.Blocked:
		fmt.Fprintf(w, "%s %s blocked: %s\n", io.Red("⊘"), id, e.Question)
		p.parked(e)
		fmt.Fprintf(w, "  %s\n", io.Faint("once it is unblocked: bh reopen "+e.Task))
	}
}

// stopped writes a run that was stopped: by a human, or with its worker.
func (p *progress) stopped(e worker.Event) {
	id, took := p.io.Cyan(e.Task), elapsed(e.Elapsed)
	switch {
	case e.Summary != "": // a human stopped the task (bh stop): it stays as they left it
		fmt.Fprintf(p.w, "⏹ %s stopped after %s: %s\n", id, took, e.Summary)
	case p.revived[e.Task]: // its worker died; the task is open and is taken up again now
		fmt.Fprintf(p.w, "⏹ %s: the dead worker's run is over; the task is open again and resumes from its parked work\n", id)
	default:
		fmt.Fprintf(p.w, "⏹ %s stopped after %s; it resumes on the next start\n", id, took)
	}
	p.parked(e)
}

// elapsed is a run's duration as people read it: 0.4s, 12s, 3m5s.
func elapsed(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
