package web

import (
	"bufio"
	"math"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task/stats"
	"github.com/prometheus/common/expfmt"
)

// TestMetricsTextEscapes: what /metrics writes reads back through
// Prometheus's own parser whatever a repository is called (quotes,
// backslashes, a newline in its path), with an empty summary's quantiles
// NaN and its count 0.
func TestMetricsTextEscapes(t *testing.T) {
	repos := []repoStats{{Repo: `we"ird\name`, Path: "/tmp/a\nb", Figures: stats.Figures{Landed: 3}}}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	for _, fam := range families {
		fam.write(w, repos)
	}
	w.Flush()
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("not Prometheus text: %v\n%s", err, b.String())
	}
	landed := fams["bh_tasks_landed_total"].GetMetric()[0]
	labels := map[string]string{}
	for _, l := range landed.GetLabel() {
		labels[l.GetName()] = l.GetValue()
	}
	if landed.GetCounter().GetValue() != 3 || labels["repo"] != `we"ird\name` || labels["path"] != "/tmp/a\nb" {
		t.Errorf("landed: %v", landed)
	}
	q := fams["bh_time_to_first_question_seconds"].GetMetric()[0].GetSummary()
	if q.GetSampleCount() != 0 || len(q.GetQuantile()) != 2 || !math.IsNaN(q.GetQuantile()[0].GetValue()) {
		t.Errorf("an empty summary: %v", q)
	}
	if v := fams["bh_questions_per_task"].GetMetric()[0].GetGauge().GetValue(); v != 0 {
		t.Errorf("questions per task of 3 landed tasks that asked none: %v", v)
	}
}
