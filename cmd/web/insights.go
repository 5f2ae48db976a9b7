package web

import (
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/stats"
	"github.com/bh-tracker/bh/task/store"
)

// repoStats are a registered repository's human-loop figures.
type repoStats struct {
	Repo, Path string
	stats.Figures
}

// figures reads every registered repository's figures since since.
func (s *Server) figures(since time.Time) ([]repoStats, []error) {
	roots, err := s.o.Repos()
	if err != nil {
		return nil, []error{fmt.Errorf("the registry of repositories cannot be read: %w", err)}
	}
	repos, skipped := store.ReadRepos(roots)
	out := make([]repoStats, len(repos))
	for i, r := range repos {
		out[i] = repoStats{filepath.Base(r.Root), r.Root, stats.Compute(r.Tasks, since, s.o.Now())}
	}
	return out, skipped
}

// insightsView is the insights page: each repository's figures, with two
// charts drawn on the server.
type insightsView struct {
	Since  string // the window, as ?since= gives it
	Window string // the window, said: "from … to …"
	Repos  []repoInsights
	Errors []string
}

// repoInsights are a repository's figures as the page says them, each
// with how many tasks or answers it rests on ("no data" when none).
type repoInsights struct {
	repoStats
	Said                    []figureRow
	Asked                   string // where questions come, said
	LatencyChart, WhenChart chart
}

type figureRow struct{ Name, Value string }

// chart is a bar chart as SVG: a row per bar, its length scaled to the
// longest; Inner, when set, is drawn inside it (a median inside its p90).
type chart struct {
	Title  string // what it shows, for screen readers
	Height int
	Rows   []chartRow
}

type chartRow struct {
	Label, Value string
	Y, W, Inner  int
}

const chartWidth, rowHeight = 240, 22

func newChart(title string, labels, values []string, lengths, inner []float64) chart {
	top := slices.Max(append(slices.Clone(lengths), 1e-9))
	c := chart{Title: title, Height: len(labels) * rowHeight}
	for i, l := range labels {
		r := chartRow{Label: l, Value: values[i], Y: i * rowHeight, W: int(float64(chartWidth) * lengths[i] / top)}
		if inner != nil {
			r.Inner = int(float64(chartWidth) * inner[i] / top)
		}
		c.Rows = append(c.Rows, r)
	}
	return c
}

func insights(r repoStats) repoInsights {
	lat := r.HumanLatency.ByChannel
	var channels, said []string
	var p50, p90 []float64
	for _, ch := range slices.Sorted(maps.Keys(lat)) {
		channels, p50, p90 = append(channels, ch), append(p50, lat[ch].P50), append(p90, lat[ch].P90)
		said = append(said, fmt.Sprintf("%s · %s (%d)", seconds(lat[ch].P50), seconds(lat[ch].P90), lat[ch].Count))
	}
	var tenths, counts []string
	var n []float64
	for i, c := range r.AskedWhen.Tenths {
		tenths, counts, n = append(tenths, fmt.Sprintf("%d–%d%%", i*10, i*10+10)), append(counts, strconv.Itoa(c)), append(n, float64(c))
	}
	f, rounds := r.Figures, r.RoundsToGreen
	asked := 0
	for _, c := range f.AskedWhen.Tenths {
		asked += c
	}
	return repoInsights{repoStats: r,
		Said: []figureRow{{"landed", strconv.Itoa(f.Landed)},
			{"questions per landed task", stats.Averaged("%.1f", f.QuestionsPerTask, f.Landed)},
			{"first question after (p50, p90)", stats.Times(f.TimeToFirstQuestion)},
			{"people answer in (p50, p90)", stats.Times(f.HumanLatency.Quantiles)},
			{"blocked on a human", stats.Averaged("%.0f%%", 100*f.BlockedShare, f.Landed)},
			{"rounds to green: checks", stats.Averaged("%.1f", rounds.Checks, rounds.Checked)},
			{"rounds to green: PR feedback", stats.Averaged("%.1f", rounds.Feedback, rounds.Reviewed)},
			{"cost per landed task", f.Cost()}, {"usage-limit pauses", strconv.Itoa(f.LimitPauses)}},
		Asked:        stats.Averaged("%.0f%% in the first 10%%", 100*f.AskedWhen.FirstTenth, asked),
		LatencyChart: newChart("answer times by channel: p50 · p90 (answers)", channels, said, p90, p50),
		WhenChart:    newChart("questions by the share of the work elapsed", tenths, counts, n, nil)}
}

// seconds says a figure in seconds as people say times.
var seconds = stats.Seconds

// windowSaid says the window of figures read at until: from since (the
// whole history when it is zero) to until.
func windowSaid(since, until time.Time, asked string) string {
	const at = "2006-01-02 15:04 MST"
	if since.IsZero() {
		return "the whole history, to " + until.UTC().Format(at)
	}
	return fmt.Sprintf("the last %s: from %s to %s", asked, since.UTC().Format(at), until.UTC().Format(at))
}

// window is the start of the figures ?since= asks for: the whole history
// without it.
func (s *Server) window(w http.ResponseWriter, r *http.Request) (time.Time, bool) {
	v := r.URL.Query().Get("since")
	if v == "" {
		return time.Time{}, true
	}
	d, err := task.ParseDur(v)
	if err != nil {
		http.Error(w, "bh serve: since: "+err.Error(), http.StatusBadRequest)
	}
	return s.o.Now().Add(-d), err == nil
}

func (s *Server) insights(w http.ResponseWriter, r *http.Request) {
	since, ok := s.window(w, r)
	if !ok {
		return
	}
	v := insightsView{Since: r.URL.Query().Get("since")}
	v.Window = windowSaid(since, s.o.Now(), v.Since)
	repos, errs := s.figures(since)
	for _, r := range repos {
		v.Repos = append(v.Repos, insights(r))
	}
	for _, err := range errs {
		v.Errors = append(v.Errors, err.Error())
	}
	s.render(w, r, http.StatusOK, "insights", "bh insights", v)
}
