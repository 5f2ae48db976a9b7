package notify

import "strings"

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

// details are the lines under the headline: the task's title, then what
// it says (see said) and the question's choices.
func details(e Event) []string {
	var out []string
	for _, s := range []string{e.Title, firstLines(said(e))} {
		if s != "" {
			out = append(out, s)
		}
	}
	if len(e.Choices) > 0 {
		out = append(out, "Choices: "+strings.Join(e.Choices, " · "))
	}
	return out
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
	switch e.Name {
	case EventInputRequested, EventInputReminder, EventTaskFailed:
		return true
	}
	return false
}
