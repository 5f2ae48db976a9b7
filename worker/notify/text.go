package notify

import (
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// What people read (a desktop popup, a Slack message, an ntfy push) is
// worded here, once; the json format carries the event as data instead.

// A question in a popup is cut to its first lines: the agent may write
// pages, and the page or the command shows the rest.
const (
	maxLines = 4
	maxRunes = 400
)

// firstLines is s cut to its first lines, marked with … when cut.
func firstLines(s string) string {
	s = strings.TrimSpace(s)
	cut := false
	if lines := strings.Split(s, "\n"); len(lines) > maxLines {
		s, cut = strings.Join(lines[:maxLines], "\n"), true
	}
	if r := []rune(s); len(r) > maxRunes {
		s, cut = string(r[:maxRunes]), true
	}
	if cut {
		s = strings.TrimRight(s, " \t\n") + "…"
	}
	return s
}

// headline says what happened where: "bh: tm-4k2p input requested in shop".
func headline(e Event) string {
	h := "bh: " + e.TaskID + " " + strings.ReplaceAll(e.Name, ".", " ")
	if e.Repo != "" {
		h += " in " + e.Repo
	}
	return h
}

// part is one question of an event as people read it: the question (with
// its answer, for input.received), its choices and the command that
// answers it.
type part struct {
	text, respond string
	choices       []string
}

// parts are what e says under its title: every question it carries, or
// else the one flat question or the summary (see said).
func parts(e Event) []part {
	if len(e.Questions) == 0 {
		if text := firstLines(said(e)); text != "" || e.Respond != "" {
			return []part{{text: text, respond: e.Respond, choices: e.Choices}}
		}
		return nil
	}
	var out []part
	for _, q := range e.Questions {
		text := firstLines(q.Text)
		if e.Name == task.EventInputReceived {
			by := task.Who(e.By, config.UserName()) // one person, one name
			if by == "" {
				by = "someone"
			}
			text = strings.TrimSpace(text + "\n" + by + " answered: " + firstLines(q.Answer))
		}
		out = append(out, part{text: text, respond: q.Respond, choices: q.Choices})
	}
	return out
}

// details are the lines under the headline: the task's title, then each
// part with its choices, and with respond the command that answers it.
func details(e Event, respond bool) []string {
	var out []string
	if e.Title != "" {
		out = append(out, e.Title)
	}
	for _, p := range parts(e) {
		if p.text != "" {
			out = append(out, p.text)
		}
		if len(p.choices) > 0 {
			out = append(out, "Choices: "+strings.Join(p.choices, " · "))
		}
		if respond && p.respond != "" {
			out = append(out, "Answer: "+p.respond)
		}
	}
	return append(out, review(e)...)
}

// review is what a gate's approval rests on: the agent's summary and
// the change, maxShown files.
func review(e Event) []string {
	if e.Diffstat == nil {
		return nil
	}
	var out []string
	if s := firstLines(e.Summary); s != "" {
		out = append(out, "Summary: "+s)
	}
	return append(append(out, "Changes:"), changeLines(e.Diffstat, maxShown)...)
}

// said is the pending question, or else the summary: a failed or blocked
// task may still hold an old question.
func said(e Event) string {
	if e.QuestionID != "" || e.Summary == "" {
		return e.Question
	}
	return e.Summary
}

// urgent events are the ones someone should look at now.
func urgent(e Event) bool {
	return slices.Contains([]string{task.EventInputRequested, task.EventInputReminder, task.EventTaskFailed}, e.Name)
}
