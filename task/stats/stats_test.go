package stats_test

import (
	"encoding/json"
	"reflect"
	"testing"

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
