package web

import (
	"bufio"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/task/stats"
)

// metrics serves every registered repository's figures (over its whole
// history, or ?since=) as Prometheus text (its exposition format 0.0.4): a
// family per figure, a series per repository. A figure that nothing
// measures is NaN, as Prometheus's summaries say an empty quantile, rather
// than a 0 that claims data. Written here, not by Prometheus's own encoder
// (expfmt), whose protobuf types' package initialisation cost every bh
// command about 0.25 ms, 2.5 % of bh show (perf record, 60 runs); the tests
// read what is written with Prometheus's parser.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	since, ok := s.window(w, r)
	if !ok {
		return
	}
	repos, _ := s.figures(since)
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	b := bufio.NewWriter(w)
	for _, fam := range families {
		fam.write(b, repos)
	}
	b.Flush() // a client gone away: the status is sent, nothing more can be said
}

// series is one repository's sample of a family: its labels besides the
// repository's, and its value, or its summary.
type series struct {
	labels []string // name, value, ...
	v      float64
	q      *stats.Quantiles
}

type family struct {
	name, help, typ string
	series          func(f stats.Figures) []series
}

func value(v float64) []series { return []series{{v: v}} }

// averaged is a gauge drawn from n tasks, NaN when there are none.
func averaged(v float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return v
}

// summary is q as a Prometheus summary: quantiles NaN when it is empty.
func summary(q stats.Quantiles, labels ...string) series { return series{labels: labels, q: &q} }

var families = []family{
	{"bh_tasks_landed_total", "Tasks whose work landed.", "counter",
		func(f stats.Figures) []series { return value(float64(f.Landed)) }},
	{"bh_time_to_first_question_seconds", "From a task's claim to its first question.", "summary",
		func(f stats.Figures) []series { return []series{summary(f.TimeToFirstQuestion)} }},
	{"bh_questions_per_task", "Questions each landed task asked, on average.", "gauge",
		func(f stats.Figures) []series { return value(averaged(f.QuestionsPerTask, f.Landed)) }},
	{"bh_questions_first_tenth_ratio", "Share of the landed tasks' questions asked in the first 10% of their work.", "gauge",
		func(f stats.Figures) []series { return value(averaged(f.AskedWhen.FirstTenth, asked(f))) }},
	{"bh_human_latency_seconds", "From a question asked to its answer, by channel (all: every human answer).",
		"summary", latencySeries},
	{"bh_blocked_share", "The landed tasks' time awaiting a human over their time from claim to landing.", "gauge",
		func(f stats.Figures) []series { return value(averaged(f.BlockedShare, f.Landed)) }},
	{"bh_rounds_to_green", "Rounds of checks and of pull request feedback to green, on average.", "gauge",
		func(f stats.Figures) []series {
			return []series{{labels: []string{"kind", "checks"}, v: averaged(f.RoundsToGreen.Checks, f.RoundsToGreen.Checked)},
				{labels: []string{"kind", "feedback"}, v: averaged(f.RoundsToGreen.Feedback, f.RoundsToGreen.Reviewed)}}
		}},
	{"bh_cost_per_landed_usd", "What the landed tasks' runs cost, per landed task whose agent reported a cost, in USD.", "gauge",
		func(f stats.Figures) []series { return value(averaged(f.CostPerLanded, f.CostKnown)) }},
	{"bh_tasks_landed_cost_unknown", "Landed tasks whose agent reported no cost.", "gauge",
		func(f stats.Figures) []series { return value(float64(f.Landed - f.CostKnown)) }},
	{"bh_limit_pauses_total", "Runs cut short by a usage limit.", "counter",
		func(f stats.Figures) []series { return value(float64(f.LimitPauses)) }},
}

// asked is how many questions the landed tasks asked in their work.
func asked(f stats.Figures) int {
	n := 0
	for _, c := range f.AskedWhen.Tenths {
		n += c
	}
	return n
}

func latencySeries(f stats.Figures) []series {
	out := []series{summary(f.HumanLatency.Quantiles, "channel", "all")}
	for _, ch := range slices.Sorted(maps.Keys(f.HumanLatency.ByChannel)) {
		out = append(out, summary(f.HumanLatency.ByChannel[ch], "channel", ch))
	}
	return out
}

// write writes the family's series of repos, each labelled with its
// repository's name and path; nothing for a family without one.
func (fam family) write(w *bufio.Writer, repos []repoStats) {
	headed := false
	for _, r := range repos {
		for _, s := range fam.series(r.Figures) {
			if !headed {
				w.WriteString("# HELP " + fam.name + " " + helpEscaper.Replace(fam.help) + "\n# TYPE " + fam.name + " " + fam.typ + "\n")
				headed = true
			}
			kv := append([]string{"repo", r.Repo, "path", r.Path}, s.labels...)
			if s.q == nil {
				sample(w, fam.name, kv, s.v)
				continue
			}
			p50, p90 := s.q.P50, s.q.P90
			if s.q.Count == 0 {
				p50, p90 = math.NaN(), math.NaN()
			}
			sample(w, fam.name, slices.Concat(kv, []string{"quantile", "0.5"}), p50)
			sample(w, fam.name, slices.Concat(kv, []string{"quantile", "0.9"}), p90)
			sample(w, fam.name+"_sum", kv, s.q.Sum)
			sample(w, fam.name+"_count", kv, float64(s.q.Count))
		}
	}
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

// sample writes one line: name{k="v",...} value.
func sample(w *bufio.Writer, name string, kv []string, v float64) {
	w.WriteString(name)
	sep := byte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		w.WriteByte(sep)
		sep = ','
		w.WriteString(kv[i] + `="` + labelEscaper.Replace(kv[i+1]) + `"`)
	}
	if sep == ',' {
		w.WriteByte('}')
	}
	w.WriteString(" " + number(v) + "\n")
}

// number is v as Prometheus's text writes it.
func number(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
