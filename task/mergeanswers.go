package task

import (
	"cmp"
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"
)

// Two clones may answer one question before either syncs. The merge takes
// the earlier answer as the answer and keeps the later one in the history
// as input.unused, so that neither sync stops on a conflict and the agent
// is given one answer: the first.

// Where an item of a merged list came from.
const (
	fromBoth   = iota // the base, or the same on both sides
	fromOurs          // ours alone
	fromTheirs        // theirs alone
)

// answerKeys are the fields that answering changes besides the history and
// the questions: when two answers met, the side whose answer stands has them.
var answerKeys = map[string]bool{"state": true, "humanResponse": true, "humanRespondedAt": true}

// settleAnswers finds, in the merged history, each answer one side gave to
// a question the other side had answered earlier in the same round, and
// turns it into input.unused, saying whose answer was used. The merged
// questions keep the version that holds the earlier answer. It returns the
// side whose answer stands, or fromBoth when no two answers met.
func settleAnswers(merged map[string]*yaml.Node, b, o, t *yaml.Node) int {
	hist := merged["history"]
	if hist == nil {
		return fromBoth
	}
	from := func(n *yaml.Node) int { return origin("history", n, b, o, t) }
	winner := fromBoth
	answer := map[string]*yaml.Node{} // each question's answer in this round
	for i, e := range hist.Content {
		qid := scalarOf(e, "questionId")
		switch scalarOf(e, "kind") {
		case EventInputRequested:
			delete(answer, qid)
		case EventInputReceived:
			first, ok := answer[qid]
			if !ok {
				answer[qid] = e
				continue
			}
			side, other := from(first), from(e)
			if side == fromBoth || other == fromBoth || side == other {
				continue // not two clones' answers: leave the history as it is
			}
			hist.Content[i] = unusedAnswer(e, first)
			if winner == fromBoth {
				winner = side
			}
		}
	}
	if q := merged["questions"]; q != nil {
		merged["questions"] = oneVersionEach(q, func(n *yaml.Node) int { return origin("questions", n, b, o, t) })
	}
	return winner
}

// unusedAnswer is a copy of the answer event e, made input.unused because
// first answered the question before it.
func unusedAnswer(e, first *yaml.Node) *yaml.Node {
	why := fmt.Sprintf("given in another clone after the answer %s gave at %s, which was used instead",
		cmp.Or(scalarOf(first, "by"), "someone"), scalarOf(first, "at"))
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: e.Tag, Style: e.Style}
	for i := 0; i+1 < len(e.Content); i += 2 {
		switch k, v := e.Content[i], e.Content[i+1]; k.Value {
		case "kind":
			out.Content = append(out.Content, k, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: EventInputUnused})
		case "context":
		default:
			out.Content = append(out.Content, k, v)
		}
	}
	out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "context"},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: why})
	return out
}

// oneVersionEach keeps one version of each question (by id and the time it
// was asked): a side's change over the base's, and of two sides' changes
// the one answered first, else ours.
func oneVersionEach(list *yaml.Node, from func(*yaml.Node) int) *yaml.Node {
	groups := map[[2]string][]*yaml.Node{}
	for _, q := range list.Content {
		if key := [2]string{scalarOf(q, "id"), scalarOf(q, "askedAt")}; key[0] != "" {
			groups[key] = append(groups[key], q)
		}
	}
	drop := map[*yaml.Node]bool{}
	for _, g := range groups {
		changed := slices.ContainsFunc(g, func(q *yaml.Node) bool { return from(q) != fromBoth })
		var keep *yaml.Node
		for _, q := range g {
			switch {
			case changed && from(q) == fromBoth:
				drop[q] = true // unchanged here, changed on a side
			case keep == nil:
				keep = q
			case answeredBefore(q, keep):
				drop[keep], keep = true, q
			default:
				drop[q] = true
			}
		}
	}
	out := &yaml.Node{Kind: list.Kind, Tag: list.Tag, Style: list.Style}
	out.Content = slices.DeleteFunc(slices.Clone(list.Content), func(n *yaml.Node) bool { return drop[n] })
	return out
}

// answeredBefore: a was answered, and b was not, or later.
func answeredBefore(a, b *yaml.Node) bool {
	if scalarOf(a, "status") != QuestionAnswered {
		return false
	}
	return scalarOf(b, "status") != QuestionAnswered || scalarOf(a, "answeredAt") < scalarOf(b, "answeredAt")
}

// origin says which side the item n of the merged list key came from.
func origin(key string, n, b, o, t *yaml.Node) int {
	in := func(m *yaml.Node) bool { return contains(valueOf(m, key), n) }
	switch ours, theirs := in(o), in(t); {
	case in(b) || ours == theirs:
		return fromBoth
	case ours:
		return fromOurs
	}
	return fromTheirs
}

func contains(list, n *yaml.Node) bool {
	return list != nil && slices.ContainsFunc(list.Content, func(it *yaml.Node) bool { return sameValue(it, n) })
}
