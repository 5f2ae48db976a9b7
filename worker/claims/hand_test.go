package claims

import (
	"errors"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

// TestHandOverGoesToOne: a claim handed over by token is taken by the
// receiver or taken back by the giver, never both; and nobody else takes
// it while the hand-over claim lasts.
func TestHandOverGoesToOne(t *testing.T) {
	for _, first := range []string{"receiver", "giver"} {
		t.Run(first, func(t *testing.T) {
			s1, s2, r1, r2, tk := twoClones(t)
			giver := NewRemote(r1, "origin", time.Minute, time.Now)
			pod := NewRemote(r2, "origin", time.Minute, time.Now)
			one := task.Lease{Worker: "worker", Host: "one", PID: 1}
			if _, err := Next(s1, giver, one, nil, nil); err != nil {
				t.Fatal(err)
			}
			handed := task.Lease{Worker: "bh-pod", Host: "one"}
			token, err := giver.HandOver(tk.ID, handed, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			podLease := task.Lease{Worker: "worker", Host: "pod", PID: 2}
			if _, err := Next(s2, pod, podLease, nil, nil); !errors.Is(err, ErrNothingReady) {
				t.Fatalf("taken without the token: %v", err)
			}
			pod.Accept(tk.ID, token)
			if first == "giver" {
				if err := giver.TakeBack(tk.ID, handed); err != nil {
					t.Fatalf("take back: %v", err)
				}
				if got, err := Next(s2, pod, podLease, nil, nil); !errors.Is(err, ErrNothingReady) {
					t.Fatalf("the pod took a claim taken back: %v %v", got, err)
				}
				return
			}
			if got, err := Next(s2, pod, podLease, nil, nil); err != nil || got.ID != tk.ID {
				t.Fatalf("the pod, with the token: %v %v", got, err)
			}
			if err := giver.TakeBack(tk.ID, handed); !errors.Is(err, ErrClaimed) {
				t.Fatalf("taken back from the pod that took it: %v", err)
			}
			if err := giver.Fetch(); err != nil {
				t.Fatal(err)
			}
			if _, cl, err := giver.Current(tk.ID); err != nil || cl.Host != "pod" || cl.State != Held {
				t.Fatalf("the claim after: %+v %v", cl, err)
			}
		})
	}
}
