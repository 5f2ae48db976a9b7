package task

import "strings"

// channelNames are how people call the channels an answer came through,
// by the By it was recorded with (config.ViaLink, ViaNtfy, ViaSlack; the
// board), and userChannels those that record a user ("web:<user>").
var (
	channelNames = map[string]string{"link": "phone link", "ntfy": "ntfy", "slack": "slack", "board": "board"}
	userChannels = map[string]string{"web:": "web", "continue:": "bh continue", "github:": "github"}
)

// Who is the name people are shown for an event's By: "you" for this
// machine's human (me is its user name), with the channel beside it when
// the answer came another way than bh respond ("you (web)"); anyone else
// as they are. The stored By never changes.
func Who(by, me string) string {
	if by == "human" {
		return "you"
	}
	if ch, ok := channelNames[by]; ok {
		return "you (" + ch + ")"
	}
	for prefix, ch := range userChannels {
		if user, ok := strings.CutPrefix(by, prefix); ok {
			if user == me {
				return "you (" + ch + ")"
			}
			return user + " (" + ch + ")"
		}
	}
	return by
}
