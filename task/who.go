package task

import "strings"

// Channel is the one word every output uses for the channel an answer
// (or an act) came through, by the By it was recorded with: cli (bh
// respond, recorded as "human"), board, web ("web:<user>"), link (a
// phone's answer link), ntfy, slack, takeover (bh continue,
// "continue:<user>"), github (a reply on the task's issue,
// "github:<login>"); "" for anything else (a worker, a user's name).
// bh stats counts answers by it, the webhook JSON carries it beside by,
// and Who names it beside "you".
func Channel(by string) string {
	switch {
	case by == "human":
		return "cli"
	case by == "board", by == "link", by == "ntfy", by == "slack":
		return by
	case strings.HasPrefix(by, "web:"):
		return "web"
	case strings.HasPrefix(by, "continue:"):
		return "takeover"
	case strings.HasPrefix(by, "github:"):
		return "github"
	}
	return ""
}

// Who is the name people are shown for an event's By: "you" for this
// machine's human (me is its user name), with the channel beside it when
// the answer came another way than bh respond ("you (web)"); anyone else
// as they are, with theirs ("bob (web)"). The stored By never changes.
func Who(by, me string) string {
	ch := Channel(by)
	switch _, user, named := strings.Cut(by, ":"); {
	case ch == "cli":
		return "you"
	case ch == "":
		return by
	case named && user != me:
		return user + " (" + ch + ")"
	}
	return "you (" + ch + ")"
}
