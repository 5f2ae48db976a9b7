package stats

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
)

// NoData is a figure that nothing in the window measures: said instead
// of a 0 that would claim some.
const NoData = "no data"

// Averaged says a figure drawn from n tasks or questions, with n:
// "2.0 (1)"; NoData when there are none.
func Averaged(format string, v float64, n int) string {
	if n == 0 {
		return NoData
	}
	return fmt.Sprintf(format+" (%d)", v, n)
}

// Times says quantiles in seconds as people say times, with their count:
// "10m, 30m (3)"; NoData when there are none.
func Times(q Quantiles) string {
	if q.Count == 0 {
		return NoData
	}
	return fmt.Sprintf("%s, %s (%d)", Seconds(q.P50), Seconds(q.P90), q.Count)
}

// Seconds says a time in seconds as people say it: "5m".
func Seconds(s float64) string { return task.ShortDur(time.Duration(s * float64(time.Second))) }

// Cost says the cost per landed task over the tasks whose cost is known,
// and how many landed tasks' cost is not: "$2.00 (2)", "$2.00 (2; 1
// unknown)", "unknown (3)"; NoData when nothing landed.
func (f Figures) Cost() string {
	unknown := f.Landed - f.CostKnown
	switch {
	case f.Landed == 0:
		return NoData
	case f.CostKnown == 0:
		return fmt.Sprintf("unknown (%d)", unknown)
	case unknown > 0:
		return fmt.Sprintf("$%.2f (%d; %d unknown)", f.CostPerLanded, f.CostKnown, unknown)
	}
	return Averaged("$%.2f", f.CostPerLanded, f.CostKnown)
}
