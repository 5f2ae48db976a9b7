package stats_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/stats"
	"github.com/bh-tracker/bh/task/stats/statstest"
)

// TestScripted reads the scripted history's figures, each worked out by
// hand (statstest.Tasks says how).
func TestScripted(t *testing.T) {
	f := stats.Compute(statstest.Tasks(), statstest.Since, statstest.Now)
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(statstest.Want), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("figures\n%s\nwant\n%s", b, statstest.Want)
	}
}

func TestQuiet(t *testing.T) {
	// Nothing happened: every figure is zero, none is NaN.
	f := stats.Compute(nil, statstest.Since, statstest.Now)
	if _, err := json.Marshal(f); err != nil || f.Landed != 0 || f.HumanLatency.P90 != 0 || f.BlockedShare != 0 {
		t.Errorf("figures %+v: %v", f, err)
	}
}

// A landed task whose agent reported no cost is no free task: the cost
// per landed task is averaged over the others, and says how many were
// unknown.
func TestCostUnknown(t *testing.T) {
	for _, c := range []struct {
		tasks     []*task.Task
		known     int
		per, said string
	}{
		{nil, 0, "0.00", stats.NoData},
		{[]*task.Task{statstest.Uncosted()}, 0, "0.00", "unknown (1)"},
		{append(statstest.Tasks(), statstest.Uncosted()), 3, "2.00", "$2.00 (3; 1 unknown)"},
		{statstest.Tasks(), 3, "2.00", "$2.00 (3)"},
	} {
		f := stats.Compute(c.tasks, statstest.Since, statstest.Now)
		if f.CostKnown != c.known || fmt.Sprintf("%.2f", f.CostPerLanded) != c.per || f.Cost() != c.said {
			t.Errorf("%d tasks: cost known for %d, %.2f per landed task, said %q; want %d, %s, %q",
				len(c.tasks), f.CostKnown, f.CostPerLanded, f.Cost(), c.known, c.per, c.said)
		}
	}
}

// TestPlanned marks the questions asked in planning runs, and compares
// how early the tasks that planned asked with the others.
func TestPlanned(t *testing.T) {
	f := stats.Compute(statstest.Planned(), statstest.Since, statstest.Now)
	b, _ := json.Marshal(f.AskedWhen)
	var got, want any
	json.Unmarshal(b, &got)
	if err := json.Unmarshal([]byte(statstest.WantPlanned), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || f.Landed != 2 {
		t.Errorf("askedWhen\n%s\nwant\n%s (landed %d)", b, statstest.WantPlanned, f.Landed)
	}
}
