package web

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/task/stats"
)

// metrics serves every registered repository's figures (over its whole
// history, or ?since=) as Prometheus text: a family per figure, a series
// per repository.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	since, ok := s.window(w, r)
	if !ok {
		return
	}
	repos, _ := s.figures(since)
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	writeMetrics(w, repos)
}

// sample is one line of a family: a suffix to its name (_count), labels
// besides the repository's, and its value.
type sample struct {
	suffix string
	labels []string // name, value, ...
	v      float64
}

type family struct {
	name, typ, help string
	samples         func(f stats.Figures) []sample
}

func gauge(v func(f stats.Figures) float64) func(stats.Figures) []sample {
	return func(f stats.Figures) []sample { return []sample{{v: v(f)}} }
}

func summary(q stats.Quantiles, labels ...string) []sample {
	return []sample{{"", append([]string{"quantile", "0.5"}, labels...), q.P50},
		{"", append([]string{"quantile", "0.9"}, labels...), q.P90}, {"_count", labels, float64(q.Count)}}
}

var families = []family{
	{"bh_tasks_landed_total", "counter", "Tasks whose work landed.", gauge(func(f stats.Figures) float64 { return float64(f.Landed) })},
	{"bh_time_to_first_question_seconds", "summary", "From a task's claim to its first question.",
		func(f stats.Figures) []sample { return summary(f.TimeToFirstQuestion) }},
	{"bh_questions_per_task", "gauge", "Questions each landed task asked, on average.", gauge(func(f stats.Figures) float64 { return f.QuestionsPerTask })},
	{"bh_questions_first_tenth_ratio", "gauge", "Share of the landed tasks' questions asked in the first 10% of their work.",
		gauge(func(f stats.Figures) float64 { return f.AskedWhen.FirstTenth })},
	{"bh_human_latency_seconds", "summary", "From a question asked to its answer, by channel (all: every human answer).", latencySamples},
	{"bh_blocked_share", "gauge", "The landed tasks' time awaiting a human over their time from claim to landing.",
		gauge(func(f stats.Figures) float64 { return f.BlockedShare })},
	{"bh_rounds_to_green", "gauge", "Rounds of checks and of pull request feedback to green, on average.", func(f stats.Figures) []sample {
		return []sample{{"", []string{"kind", "checks"}, f.RoundsToGreen.Checks}, {"", []string{"kind", "feedback"}, f.RoundsToGreen.Feedback}}
	}},
	{"bh_cost_per_landed_usd", "gauge", "What the landed tasks' runs cost, per landed task, in USD.", gauge(func(f stats.Figures) float64 { return f.CostPerLanded })},
	{"bh_limit_pauses_total", "counter", "Runs cut short by a usage limit.", gauge(func(f stats.Figures) float64 { return float64(f.LimitPauses) })},
}

func latencySamples(f stats.Figures) []sample {
	out := summary(f.HumanLatency.Quantiles, "channel", "all")
	for _, ch := range slices.Sorted(maps.Keys(f.HumanLatency.ByChannel)) {
		out = append(out, summary(f.HumanLatency.ByChannel[ch], "channel", ch)...)
	}
	return out
}

var labelEscape = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func writeMetrics(w io.Writer, repos []repoStats) {
	for _, fam := range families {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", fam.name, fam.help, fam.name, fam.typ)
		for _, r := range repos {
			for _, s := range fam.samples(r.Figures) {
				kv := append([]string{"repo", r.Repo, "path", r.Path}, s.labels...)
				var labels []string
				for i := 0; i < len(kv); i += 2 {
					labels = append(labels, kv[i]+`="`+labelEscape.Replace(kv[i+1])+`"`)
				}
				fmt.Fprintf(w, "%s%s{%s} %s\n", fam.name, s.suffix, strings.Join(labels, ","), strconv.FormatFloat(s.v, 'g', -1, 64))
			}
		}
	}
}
