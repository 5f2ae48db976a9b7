package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// webRow is one web row of issue 16's answer matrix: a task whose agent
// asks, what the human does on the task's page for each question (sec is
// the question's section), and what the resumed agent must read for each,
// byte for byte.
type webRow struct {
	title string
	asks  string // the questions of the agent's needs_input, in JSON
	steps []func(sec string) []chromedp.Action[chromedp.Void]
	want  []string
}

// send submits the task's form: every answer given on the page at once.
var send = click(`form.answer button.send`)

// click clicks sel with the mouse, as a user does. A node the live page
// replaced between finding it and clicking it (an update arriving then)
// is found again and clicked: chromedp finds the node's box by its id
// before it sends the click, so a node gone is a click not yet made.
func click(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for {
			_, err := chromedp.Click(chromedp.CSS(sel))(ctx, tg)
			if err == nil || ctx.Err() != nil || !nodeGone(err) {
				return err
			}
		}
	})
}

// nodeGone reports whether err is the browser's "that node is gone".
func nodeGone(err error) bool {
	return strings.Contains(err.Error(), "Could not find node with given id") ||
		strings.Contains(err.Error(), "No node with given id found")
}

func typeIn(sel, text string) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(chromedp.CSS(sel), text)
}

var webRows = []webRow{{
	// The bug of issue 16: a comment under the options ticked Other.
	title: "Pick a database",
	asks:  `[{"question":"Which database should the shop use?","header":"Database","type":"choice","options":[{"label":"Postgres","description":"what production runs"},{"label":"SQLite","description":"one file, no server"}]}]`,
	steps: []func(string) []chromedp.Action[chromedp.Void]{func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{click(sec + ` input[value="SQLite"]`),
			typeIn(sec+` textarea[name^=comment]`, "one file is enough for now"), send}
	}},
	want: []string{"SQLite: one file is enough for now"},
}, {
	title: "Drop the legacy table",
	asks:  `[{"question":"May I drop the legacy table?","type":"approval"}]`,
	steps: []func(string) []chromedp.Action[chromedp.Void]{func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{click(sec + ` button.yes`)}
	}},
	want: []string{"yes"},
}, {
	title: "Rename the column",
	asks:  `[{"question":"May I rename user_name to name?","type":"approval"}]`,
	steps: []func(string) []chromedp.Action[chromedp.Void]{func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{typeIn(sec+` textarea[name^=comment]`, "keep it, the reports read it\nand so  does the export"),
			click(sec + ` button.no`)}
	}},
	want: []string{"no: keep it, the reports read it\nand so  does the export"},
}, {
	title: "Choose the platforms",
	asks:  `[{"question":"Which platforms should the build cover?","type":"choice","multiSelect":true,"options":[{"label":"Linux"},{"label":"macOS"},{"label":"Windows"}]}]`,
	steps: []func(string) []chromedp.Action[chromedp.Void]{func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{click(sec + ` input[value="Linux"]`), click(sec + ` input[value="Windows"]`),
			send}
	}},
	want: []string{"Linux, Windows"},
}, {
	// A comment alone is refused (nothing picked) and kept in the form;
	// words typed in Other's box pick Other, and the comment follows them.
	title: "Choose the forge",
	asks:  `[{"question":"Where should the code live?","type":"choice","options":[{"label":"GitHub"},{"label":"Bitbucket"}]}]`,
	steps: []func(string) []chromedp.Action[chromedp.Void]{func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{typeIn(sec+` textarea[name^=comment]`, "we pay for it already"), send,
			chromedp.WaitVisible(chromedp.CSS(`p.error`)), typeIn(sec+` input[name^=other]`, "GitLab, as the team uses it"),
			send}
	}},
	want: []string{"other: GitLab, as the team uses it\nwe pay for it already"},
}, {
	title: "Name the mascot",
	asks:  `[{"question":"What should the mascot be called?","type":"freeform"}]`,
	steps: []func(string) []chromedp.Action[chromedp.Void]{func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{typeIn(sec+` textarea[name^=text]`, "Call it  Kestrel\n\nafter the bird"), send}
	}},
	want: []string{"Call it  Kestrel\n\nafter the bird"},
}, {
	// Four questions, answered in one submit.
	title: "Plan the launch",
	asks: `[{"question":"May I announce it on Monday?","type":"approval"},` +
		`{"question":"Which channel?","header":"Channel","type":"choice","options":[{"label":"Blog"},{"label":"Mailing list"}]},` +
		`{"question":"Which regions?","type":"choice","multiSelect":true,"options":[{"label":"EU"},{"label":"US"},{"label":"Asia"}]},` +
		`{"question":"Any words for the announcement?","type":"freeform"}]`,
	steps: []func(string) []chromedp.Action[chromedp.Void]{func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{click(sec + ` input[value="yes"]`)}
	}, func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{click(sec + ` input[value="Mailing list"]`),
			typeIn(sec+` textarea[name^=comment]`, "the blog is down")}
	}, func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{click(sec + ` input[value="EU"]`), click(sec + ` input[value="Asia"]`)}
	}, func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{typeIn(sec+` textarea[name^=text]`, "Thank the testers."), send}
	}},
	want: []string{"yes", "Mailing list: the blog is down", "EU, Asia", "Thank the testers."},
}, {
	// Markdown: a fenced block and a table rendered, a script inert.
	title: "Review the query",
	asks:  `[{"question":"Is this query **safe**?\n\n` + "```sql\\nselect * from users where id = $1;\\n```" + `\n\n| column | index |\n|---|---|\n| id | yes |\n\n<script>window.pwned = true</script>","type":"freeform"}]`,
	steps: []func(string) []chromedp.Action[chromedp.Void]{func(sec string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{chromedp.WaitVisible(chromedp.CSS(sec + ` pre code`)), chromedp.WaitVisible(chromedp.CSS(sec + ` table td`)),
			typeIn(sec+` textarea[name^=text]`, "Yes: it binds its parameter."), send}
	}},
	want: []string{"Yes: it binds its parameter."},
}}

// plan is the row's agent: it asks on its first run, and completes when
// resumed.
func (r webRow) plan() string {
	return fmt.Sprintf("match %s\non first\nprint {\"status\":\"needs_input\",\"summary\":\"asks\",\"questions\":%s}\n"+
		"on resume\nprint {\"status\":\"completed\",\"summary\":\"answered\"}\n", r.title, r.asks)
}

// addWebRows writes the rows' plans and adds their tasks; it returns their ids.
func addWebRows(t *testing.T, dir, agentDir string) []string {
	t.Helper()
	var ids []string
	for i, r := range webRows {
		writeE2E(t, agentDir, fmt.Sprintf("row%d.plan", i), r.plan())
		ids = append(ids, strings.TrimSpace(bhE2E(t, dir, "add", r.title)))
	}
	return ids
}

// answerWebRows answers every row on its task's page (page gives its
// address): every question, then one submit; the answered questions stay
// on the page, answered.
func answerWebRows(t *testing.T, dir string, ids []string, page func(id string) string,
	run func(string, ...chromedp.Action[chromedp.Void])) {
	t.Helper()
	for i, r := range webRows {
		qs := bhTask(t, dir, ids[i]).Questions
		if len(qs) != len(r.steps) {
			t.Fatalf("%s asked %d questions, want %d", r.title, len(qs), len(r.steps))
		}
		run(r.title+": open its page", chromedp.Navigate(page(ids[i])))
		var steps []chromedp.Action[chromedp.Void]
		for k, q := range qs {
			steps = append(steps, r.steps[k]("#q-"+q.ID)...)
		}
		steps = append(steps, chromedp.WaitVisible(chromedp.CSS(`p.ok`)))
		for _, q := range qs {
			steps = append(steps, chromedp.WaitVisible(chromedp.CSS("#q-"+q.ID+" p.answered")))
		}
		run(r.title+": answer", steps...)
	}
}

// checkWebResumed reads each row's resumed prompt: every question is followed
// by exactly the answer given on the page.
func checkWebResumed(t *testing.T, agentDir string, ids []string) {
	t.Helper()
	for i, r := range webRows {
		b, err := os.ReadFile(filepath.Join(agentDir, ids[i]+".2.prompt"))
		if err != nil {
			t.Errorf("%s was not resumed: %v", r.title, err)
			continue
		}
		var qs []struct{ Question string }
		if err := json.Unmarshal([]byte(r.asks), &qs); err != nil {
			t.Fatal(err)
		}
		for k, q := range qs {
			if want := q.Question + "\nAnswer: " + r.want[k] + "\n"; !strings.Contains(string(b), want) {
				t.Errorf("%s: the resumed prompt lacks %q in:\n%s", r.title, want, b)
			}
		}
	}
}
