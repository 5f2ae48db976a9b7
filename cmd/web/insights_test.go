package web

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task/stats"
	"github.com/bh-tracker/bh/task/stats/statstest"
	"github.com/bh-tracker/bh/task/store"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// scriptedSite is bh serve over a repository whose committed tasks hold
// the scripted history (statstest.Tasks), at statstest.Now.
func scriptedSite(t *testing.T) *httptest.Server {
	t.Helper()
	root := t.TempDir()
	gitIn := func(args ...string) {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	gitIn("init", "-q")
	st, _, err := store.Init(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range statstest.Tasks() {
		if err := st.Put(tk); err != nil {
			t.Fatal(err)
		}
	}
	gitIn("add", "-A")
	gitIn("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "the scripted history")
	srv, err := New(Options{Token: token, By: "web:alice", Now: func() time.Time { return statstest.Now },
		Repos: func() ([]string, error) { return []string{root}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func getWith(t *testing.T, url, tok string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// /metrics needs the token, parses as Prometheus text, and gives the
// figures worked out by hand for the scripted history.
func TestMetricsScripted(t *testing.T) {
	ts := scriptedSite(t)
	if code, _ := getWith(t, ts.URL+"/metrics", ""); code != http.StatusUnauthorized {
		t.Errorf("/metrics without the token: %d", code)
	}
	code, body := getWith(t, ts.URL+"/metrics?since=7d", token)
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", code, body)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("not Prometheus text: %v\n%s", err, body)
	}
	var want stats.Figures
	if err := json.Unmarshal([]byte(statstest.Want), &want); err != nil {
		t.Fatal(err)
	}
	lat := want.HumanLatency
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"bh_tasks_landed_total", nil, float64(want.Landed)},
		{"bh_time_to_first_question_seconds", map[string]string{"quantile": "0.5"}, want.TimeToFirstQuestion.P50},
		{"bh_time_to_first_question_seconds", map[string]string{"quantile": "0.9"}, want.TimeToFirstQuestion.P90},
		{"bh_questions_per_task", nil, want.QuestionsPerTask},
		{"bh_questions_first_tenth_ratio", nil, want.AskedWhen.FirstTenth},
		{"bh_human_latency_seconds", map[string]string{"channel": "all", "quantile": "0.5"}, lat.P50},
		{"bh_human_latency_seconds", map[string]string{"channel": "all", "quantile": "0.9"}, lat.P90},
		{"bh_human_latency_seconds", map[string]string{"channel": "board", "quantile": "0.5"}, lat.ByChannel["board"].P50},
		{"bh_human_latency_seconds", map[string]string{"channel": "default", "quantile": "0.9"}, lat.ByChannel["default"].P90},
		{"bh_blocked_share", nil, want.BlockedShare},
		{"bh_rounds_to_green", map[string]string{"kind": "checks"}, want.RoundsToGreen.Checks},
		{"bh_rounds_to_green", map[string]string{"kind": "feedback"}, want.RoundsToGreen.Feedback},
		{"bh_cost_per_landed_usd", nil, want.CostPerLanded},
		{"bh_limit_pauses_total", nil, float64(want.LimitPauses)},
	} {
		got, ok := metricValue(fams[c.name], c.labels)
		if !ok || got != c.want {
			t.Errorf("%s%v = %v (found %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	if n := fams["bh_human_latency_seconds"].GetMetric(); len(n) != 7 || n[0].GetSummary().GetSampleCount() != 5 {
		t.Errorf("human latency: %d series (all and 6 channels), the first of %d answers", len(n), n[0].GetSummary().GetSampleCount())
	}
	for _, name := range []string{"bh_time_to_first_question_seconds", "bh_human_latency_seconds"} {
		for _, suffix := range []string{"_sum{", "_count{"} {
			if !strings.Contains(body, "\n"+name+suffix) {
				t.Errorf("no %s%s in:\n%s", name, suffix, body)
			}
		}
	}
	if s := fams["bh_time_to_first_question_seconds"].GetMetric()[0].GetSummary(); s.GetSampleSum() != want.TimeToFirstQuestion.Sum ||
		s.GetSampleCount() != 3 {
		t.Errorf("time to first question: sum %v of %d, want %v of 3", s.GetSampleSum(), s.GetSampleCount(), want.TimeToFirstQuestion.Sum)
	}
	// A day's window holds nothing: empty summaries' quantiles, and
	// averages over nothing, are NaN, not 0.
	_, day := getWith(t, ts.URL+"/metrics?since=1d", token)
	dayFams, err := p.TextToMetricFamilies(strings.NewReader(day))
	if err != nil {
		t.Fatalf("not Prometheus text: %v\n%s", err, day)
	}
	for _, c := range []struct {
		name   string
		labels map[string]string
	}{
		{"bh_time_to_first_question_seconds", map[string]string{"quantile": "0.5"}},
		{"bh_human_latency_seconds", map[string]string{"channel": "all", "quantile": "0.9"}},
		{"bh_questions_per_task", nil}, {"bh_blocked_share", nil}, {"bh_cost_per_landed_usd", nil},
		{"bh_rounds_to_green", map[string]string{"kind": "checks"}},
	} {
		if v, ok := metricValue(dayFams[c.name], c.labels); !ok || !math.IsNaN(v) {
			t.Errorf("the last day's %s%v = %v (found %v), want NaN", c.name, c.labels, v, ok)
		}
	}
	if s := dayFams["bh_time_to_first_question_seconds"].GetMetric()[0].GetSummary(); s.GetSampleCount() != 0 || s.GetSampleSum() != 0 {
		t.Errorf("the last day's time to first question: %v", s)
	}
	// The whole history counts the task landed ten days before as well.
	_, all := getWith(t, ts.URL+"/metrics", token)
	if fams, err := p.TextToMetricFamilies(strings.NewReader(all)); err != nil {
		t.Errorf("not Prometheus text: %v", err)
	} else if v, _ := metricValue(fams["bh_tasks_landed_total"], nil); v != 4 {
		t.Errorf("landed over the whole history: %v, want 4", v)
	}
}

// metricValue is the value of f's series with labels (and any repo).
func metricValue(f *dto.MetricFamily, labels map[string]string) (float64, bool) {
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range labels {
			match = match && (have[k] == v || k == "quantile")
		}
		if !match {
			continue
		}
		switch {
		case m.Summary != nil:
			for _, q := range m.Summary.GetQuantile() {
				if labels["quantile"] == "0.5" && q.GetQuantile() == 0.5 || labels["quantile"] == "0.9" && q.GetQuantile() == 0.9 {
					return q.GetValue(), true
				}
			}
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		}
	}
	return math.NaN(), false
}

// The insights page, behind the token and linked from the inbox, draws
// its charts as SVG on the server for the same history.
func TestInsightsScripted(t *testing.T) {
	ts := scriptedSite(t)
	if code, _ := getWith(t, ts.URL+"/insights", ""); code != http.StatusUnauthorized {
		t.Errorf("/insights without the token: %d", code)
	}
	if _, inbox := getWith(t, ts.URL+"/", token); !strings.Contains(inbox, `href="/insights"`) {
		t.Error("the inbox does not link to the insights")
	}
	code, page := getWith(t, ts.URL+"/insights?since=7d", token)
	if code != http.StatusOK {
		t.Fatalf("/insights: %d %s", code, page)
	}
	for _, want := range []string{
		"the last 7d: from 2025-12-31 09:00 UTC to 2026-01-07 09:00 UTC",
		"<dt>landed</dt><dd>3</dd>", "<dd>20% (3)</dd>", "<dd>$2.00 (3)</dd>", "<dd>5m, 30m (5)</dd>", "25% in the first 10% (4)",
		"<dt>rounds to green: checks</dt><dd>2.0 (1)</dd>",
		`<svg class="chart" role="img" aria-label="answer times by channel: p50 · p90 (answers)"`,
		// the latency chart: p90 bars scaled to the longest (default, 1h),
		// each with its median inside; board's 2m of 1h is 8 px of 240
		`<text class="label" x="0" y="15">board</text><rect class="bar" x="80" y="3" width="8" height="16"/><rect class="inner" x="80" y="3" width="8" height="16"/><text class="value" x="94" y="15">2m · 2m (1)</text>`,
		// the tenths: one question in each of the first three and the fifth
		`<text class="label" x="0" y="15">40–50%</text><rect class="bar" x="80" y="3" width="240" height="16"/>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q in the page:\n%s", want, page)
		}
	}
	// A day's window holds nothing, and says so rather than 0.
	_, day := getWith(t, ts.URL+"/insights?since=1d", token)
	for _, want := range []string{"<dt>questions per landed task</dt><dd>no data</dd>", "<dt>cost per landed task</dt><dd>no data</dd>",
		"<dt>blocked on a human</dt><dd>no data</dd>", "(no data)"} {
		if !strings.Contains(day, want) {
			t.Errorf("no %q in the last day's page:\n%s", want, day)
		}
	}
	if _, all := getWith(t, ts.URL+"/insights", token); !strings.Contains(all, "over the whole history, to 2026-01-07 09:00 UTC") {
		t.Errorf("the whole history's page does not say its window:\n%s", all)
	}
	if code, _ := getWith(t, ts.URL+"/insights?since=soon", token); code != http.StatusBadRequest {
		t.Errorf("since=soon: %d", code)
	}
}
