package web

import (
	"maps"
	"math"
	"net/http"
	"slices"

	"github.com/bh-tracker/bh/task/stats"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// metrics serves every registered repository's figures (over its whole
// history, or ?since=) as Prometheus text, written by Prometheus's own
// encoder: a family per figure, a series per repository. A figure that
// nothing measures is NaN, as Prometheus's summaries say an empty
// quantile, rather than a 0 that claims data.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	since, ok := s.window(w, r)
	if !ok {
		return
	}
	repos, _ := s.figures(since)
	format := expfmt.NewFormat(expfmt.TypeTextPlain)
	w.Header().Set("Content-Type", string(format))
	enc := expfmt.NewEncoder(w, format)
	for _, fam := range metricFamilies(repos) {
		if err := enc.Encode(fam); err != nil {
			return // the client went away (the status is sent, nothing more can be said)
		}
	}
}

// series is one repository's sample of a family: its labels besides the
// repository's, and its value.
type series struct {
	labels []string // name, value, ...
	m      *dto.Metric
}

type family struct {
	name, help string
	typ        dto.MetricType
	series     func(f stats.Figures) []series
}

func value(v float64) []series { return []series{{m: &dto.Metric{Gauge: &dto.Gauge{Value: new(v)}}}} }

// averaged is a gauge drawn from n tasks, NaN when there are none.
func averaged(v float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return v
}

// summary is q as a Prometheus summary: quantiles NaN when it is empty.
func summary(q stats.Quantiles, labels ...string) series {
	p50, p90 := q.P50, q.P90
	if q.Count == 0 {
		p50, p90 = math.NaN(), math.NaN()
	}
	return series{labels, &dto.Metric{Summary: &dto.Summary{SampleCount: new(uint64(q.Count)), SampleSum: new(q.Sum),
		Quantile: []*dto.Quantile{{Quantile: new(0.5), Value: new(p50)}, {Quantile: new(0.9), Value: new(p90)}}}}}
}

var (
	gauge   = dto.MetricType_GAUGE
	counter = dto.MetricType_COUNTER
)

var families = []family{
	{"bh_tasks_landed_total", "Tasks whose work landed.", counter, func(f stats.Figures) []series {
		return []series{{m: &dto.Metric{Counter: &dto.Counter{Value: new(float64(f.Landed))}}}}
	}},
	{"bh_time_to_first_question_seconds", "From a task's claim to its first question.", dto.MetricType_SUMMARY,
		func(f stats.Figures) []series { return []series{summary(f.TimeToFirstQuestion)} }},
	{"bh_questions_per_task", "Questions each landed task asked, on average.", gauge,
		func(f stats.Figures) []series { return value(averaged(f.QuestionsPerTask, f.Landed)) }},
	{"bh_questions_first_tenth_ratio", "Share of the landed tasks' questions asked in the first 10% of their work.", gauge,
		func(f stats.Figures) []series { return value(averaged(f.AskedWhen.FirstTenth, asked(f))) }},
	{"bh_human_latency_seconds", "From a question asked to its answer, by channel (all: every human answer).",
		dto.MetricType_SUMMARY, latencySeries},
	{"bh_blocked_share", "The landed tasks' time awaiting a human over their time from claim to landing.", gauge,
		func(f stats.Figures) []series { return value(averaged(f.BlockedShare, f.Landed)) }},
	{"bh_rounds_to_green", "Rounds of checks and of pull request feedback to green, on average.", gauge,
		func(f stats.Figures) []series {
			checks, feedback := value(averaged(f.RoundsToGreen.Checks, f.RoundsToGreen.Checked)),
				value(averaged(f.RoundsToGreen.Feedback, f.RoundsToGreen.Reviewed))
			checks[0].labels, feedback[0].labels = []string{"kind", "checks"}, []string{"kind", "feedback"}
			return append(checks, feedback...)
		}},
	{"bh_cost_per_landed_usd", "What the landed tasks' runs cost, per landed task whose agent reported a cost, in USD.", gauge,
		func(f stats.Figures) []series { return value(averaged(f.CostPerLanded, f.CostKnown)) }},
	{"bh_tasks_landed_cost_unknown", "Landed tasks whose agent reported no cost.", gauge,
		func(f stats.Figures) []series { return value(float64(f.Landed - f.CostKnown)) }},
	{"bh_limit_pauses_total", "Runs cut short by a usage limit.", counter, func(f stats.Figures) []series {
		return []series{{m: &dto.Metric{Counter: &dto.Counter{Value: new(float64(f.LimitPauses))}}}}
	}},
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

// metricFamilies are the families of repos' figures, each series labelled
// with its repository's name and path.
func metricFamilies(repos []repoStats) []*dto.MetricFamily {
	var out []*dto.MetricFamily
	for _, fam := range families {
		mf := &dto.MetricFamily{Name: new(fam.name), Help: new(fam.help), Type: new(fam.typ)}
		for _, r := range repos {
			for _, s := range fam.series(r.Figures) {
				kv := append([]string{"repo", r.Repo, "path", r.Path}, s.labels...)
				for i := 0; i < len(kv); i += 2 {
					s.m.Label = append(s.m.Label, &dto.LabelPair{Name: new(kv[i]), Value: new(kv[i+1])})
				}
				mf.Metric = append(mf.Metric, s.m)
			}
		}
		if len(mf.Metric) > 0 { // expfmt writes no family without a series
			out = append(out, mf)
		}
	}
	return out
}
