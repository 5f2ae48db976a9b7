package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// TestMalformedLinesDoNotEndTheServer: garbage, a non-message and an
// over-long line each get a parse error, and the server goes on answering
// the agent's real requests on the same connection.
func TestMalformedLinesDoNotEndTheServer(t *testing.T) {
	s := newStore(t)
	me, err := s.Create(&task.Task{Title: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var warned []string
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, s, me.ID, testOutbox(s, me.ID), false, GuardedTransport(inR, outW, func(w string) { warned = append(warned, w) }))
	}()
	replies := bufio.NewReader(outR)
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		line, err := replies.ReadBytes('\n')
		if err != nil {
			t.Fatalf("read a reply: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		return m
	}
	for _, bad := range []string{"{not json", `{"hello":"world"}`, strings.Repeat("x", maxLine+10)} {
		send(bad)
		if e, _ := next()["error"].(map[string]any); e == nil || e["code"] != float64(-32700) {
			t.Fatalf("after %.20q: want a parse error", bad)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r := next(); r["id"] != float64(1) || r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if r := next(); r["id"] != float64(2) || !strings.Contains(mustJSON(r), AskHuman) {
		t.Fatalf("tools/list: %v", r)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if len(warned) != 3 {
		t.Errorf("warnings: %q", warned)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
