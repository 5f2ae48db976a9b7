package cmd

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/stats"
	"github.com/bh-tracker/bh/task/store"
	"github.com/spf13/cobra"
)

type StatsOptions struct {
	base
	Since string
	All   bool
}

func newCmdStats(f *Factory, runF func(*StatsOptions) error) *cobra.Command {
	opts := &StatsOptions{}
	c := &cobra.Command{
		Use:   "stats",
		Short: "How the human loop goes: waits, answers, rounds to green, cost",
		Long: `Show the figures of the human loop, read from the tasks' histories alone
(so every machine's work counts, and anyone with the repository gets the
same figures): tasks landed; time from a task's claim to its first
question; questions per landed task and where in its work each came;
how long people took to answer (p50 and p90, by channel: cli, board, web,
link, ntfy, slack, takeover, and default when a question expired); the
share of the landed tasks' time spent awaiting a human; rounds of checks
and of pull request feedback to green; cost per landed task; runs paused
by a usage limit.

--all shows every registered repository (see bh inbox), each apart. With
--json, one object of figures (an array of them, each with repo and
repoPath, with --all); cmd/JSON.md names its keys.

Exit codes:
  0  the figures were shown
  1  an error
  2  usage error`,
		Example: `  bh stats
  bh stats --since 30d --all
  bh stats --json | jq .humanLatency.p90`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts.base = f.base()
			return runWith(runF, statsRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Since, "since", "7d", "the figures of the last `DURATION` (90m, 36h, 7d)")
	c.Flags().BoolVar(&opts.All, "all", false, "every registered repository, each apart")
	return c
}

// repoFigures are a repository's figures, as bh stats --all --json prints
// them.
type repoFigures struct {
	Repo     string `json:"repo"`
	RepoPath string `json:"repoPath"`
	stats.Figures
}

func statsRun(opts *StatsOptions) error {
	d, err := task.ParseDur(opts.Since)
	if err != nil {
		return usageErrorf("--since: %v", err)
	}
	repos, err := statsRepos(opts)
	if err != nil {
		return err
	}
	now := opts.Now()
	out := make([]repoFigures, len(repos))
	for i, r := range repos {
		out[i] = repoFigures{filepath.Base(r.Root), r.Root, stats.Compute(r.Tasks, now.Add(-d), now)}
	}
	switch {
	case opts.JSON && opts.All:
		return writeJSON(opts.IO.Out, out)
	case opts.JSON:
		return writeJSON(opts.IO.Out, out[0].Figures)
	case len(out) == 0:
		fmt.Fprintln(opts.IO.ErrOut, "no repository is registered: any bh command run in one registers it")
		return nil
	}
	fmt.Fprintf(opts.IO.Out, "since %s (%s)\n", out[0].Since.Format("2006-01-02 15:04 UTC"), opts.Since)
	return statsTable(opts.IO.Out, out)
}

// statsRepos reads the repository's tasks, or every registered one's.
func statsRepos(opts *StatsOptions) ([]store.Repo, error) {
	if !opts.All {
		s, err := opts.Store()
		if err != nil {
			return nil, err
		}
		tasks, errs, err := s.List()
		warnFiles(opts.IO, opts.JSON, errs)
		return []store.Repo{{Root: s.Root, Tasks: tasks}}, err
	}
	roots, err := config.Registered()
	if err != nil {
		return nil, fmt.Errorf("read the registry of repositories: %w", err) // err names the file
	}
	repos, skipped := store.ReadRepos(roots)
	for _, err := range skipped {
		warn(opts.IO, opts.JSON, err)
	}
	return repos, nil
}

// statsTable writes a figure a row, a repository a column.
func statsTable(w io.Writer, rs []repoFigures) error {
	chans := map[string]bool{}
	for _, r := range rs {
		for ch := range r.HumanLatency.ByChannel {
			chans[ch] = true
		}
	}
	channels := slices.Sorted(maps.Keys(chans))
	rows := [][]string{{""}, {"landed"}, {"questions per landed task"}, {"asked in the first 10% of the work"},
		{"asked in a planning run"}, {"time to first question (p50, p90)"}, {"human latency (p50, p90)"}}
	for _, ch := range channels {
		rows = append(rows, []string{"  by " + ch})
	}
	rows = append(rows, []string{"blocked share"}, []string{"rounds to green (checks, PR feedback)"},
		[]string{"cost per landed task"}, []string{"usage-limit pauses"})
	for _, r := range rs {
		f := r.Figures
		asked := 0
		for _, n := range f.AskedWhen.Tenths {
			asked += n
		}
		col := []string{r.Repo, strconv.Itoa(f.Landed), averaged("%.1f", f.QuestionsPerTask, f.Landed),
			averaged("%.0f%%", 100*f.AskedWhen.FirstTenth, asked), averaged("%.0f%%", 100*f.AskedWhen.PlanningShare, asked),
			quantText(f.TimeToFirstQuestion), quantText(f.HumanLatency.Quantiles)}
		for _, ch := range channels {
			col = append(col, quantText(f.HumanLatency.ByChannel[ch]))
		}
		col = append(col, averaged("%.0f%%", 100*f.BlockedShare, f.Landed),
			averaged("%.1f", f.RoundsToGreen.Checks, f.RoundsToGreen.Checked)+", "+averaged("%.1f", f.RoundsToGreen.Feedback, f.RoundsToGreen.Reviewed),
			averaged("$%.2f", f.CostPerLanded, f.Landed), strconv.Itoa(f.LimitPauses))
		for i := range rows {
			rows[i] = append(rows[i], col[i])
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range rows {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

// averaged is a figure drawn from n tasks or questions, with n: "2.0 (1)";
// "no data" when there are none, rather than a 0 that claims some.
func averaged(format string, v float64, n int) string {
	if n == 0 {
		return noData
	}
	return fmt.Sprintf(format+" (%d)", v, n)
}

// noData is a figure that nothing in the window measures.
const noData = "no data"

// quantText says quantiles in seconds as people say times: "10m, 30m (3)".
func quantText(q stats.Quantiles) string {
	if q.Count == 0 {
		return noData
	}
	dur := func(s float64) string { return task.ShortDur(time.Duration(s * float64(time.Second))) }
	return fmt.Sprintf("%s, %s (%d)", dur(q.P50), dur(q.P90), q.Count)
}
