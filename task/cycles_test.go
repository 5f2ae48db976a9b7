package task

import (
	"reflect"
	"testing"
)

func TestCycles(t *testing.T) {
	tasks := []*Task{
		{ID: "tm-c", DependsOn: []string{"tm-a"}},
		{ID: "tm-a", DependsOn: []string{"tm-b"}},
		{ID: "tm-b", DependsOn: []string{"tm-c", "tm-gone"}},
		{ID: "tm-self", DependsOn: []string{"tm-self"}},
		{ID: "tm-d", DependsOn: []string{"tm-a"}}, // waits on a cycle, is not on it
		{ID: "tm-e"},
	}
	got := Cycles(tasks)
	want := [][]string{{"tm-a", "tm-b", "tm-c"}, {"tm-self"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cycles = %q, want %q", got, want)
	}
	if c := CycleOf(got, "tm-b"); !reflect.DeepEqual(c, want[0]) || CycleOf(got, "tm-d") != nil {
		t.Errorf("CycleOf: %q", c)
	}
}
