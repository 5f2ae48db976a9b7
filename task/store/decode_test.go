package store

import (
	"errors"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// FuzzDecode: Decode never panics, and whatever it accepts survives
// Encode -> Decode unchanged, and the list cache's codec as well.
const goodFile = `id: tm-abcd
title: Fix the parser
type: code
priority: P2
state: open
createdAt: 2025-01-02T03:04:05Z
updatedAt: 2025-01-02T03:04:05Z
`

func FuzzDecode(f *testing.F) {
	for i := range 12 {
		b, err := task.Render(tasktest.GenTask(i, 12), nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(goodFile))
	f.Add([]byte(goodFile + "human: true\nlease:\n  worker: w\n  pid: 7\n  heartbeat: 2025-01-02T03:04:05.5+02:00\n"))
	f.Add([]byte(goodFile + "labels: []\nquestions:\n- id: q\n  question: why\n  options: [{label: a}]\n  answer: []\n"))
	f.Add([]byte("id: tm-abcd\ntitle: \"\\xff\\u2028\\t x\"\ntype: code\npriority: P2\nstate: open\n"))
	f.Add([]byte("id: tm-abcd\ntitle: x\n<<<<<<< HEAD\n"))
	f.Add([]byte("{id: tm-abcd, title: y, type: docs, priority: '1', state: closed, createdAt: 2001-12-14 21:59:43.10 -5}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		t1, err := task.Decode("f.yaml", b, "")
		if err != nil {
			var fe *task.FileError
			if !errors.As(err, &fe) || fe.Path != "f.yaml" {
				t.Fatalf("error is not a FileError for the file: %v", err)
			}
			return
		}
		out, err := task.Render(t1, nil)
		if err != nil {
			t.Fatalf("accepted but cannot encode: %v", err)
		}
		t2, err := task.Decode("f.yaml", out, t1.ID)
		if err != nil {
			t.Fatalf("encoded form does not decode: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(t1, t2) {
			t.Fatalf("round trip changed the task:\n%#v\n%#v\n%s", t1, t2, out)
		}
		var e enc
		encodeTask(&e, t1)
		var t3 task.Task
		if !decodeTask(&dec{s: string(e.b)}, &t3, false) || !reflect.DeepEqual(t1, &t3) {
			t.Fatalf("cache codec changed the task:\n%#v\n%#v", t1, &t3)
		}
	})
}
