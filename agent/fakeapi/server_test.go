package fakeapi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, srv *Server, path, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sse reads an event stream into (event name, data) pairs.
func sse(t *testing.T, r io.Reader) (names []string, data []map[string]any) {
	t.Helper()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			names = append(names, name)
		} else if raw, ok := strings.CutPrefix(line, "data: "); ok {
			var d map[string]any
			if err := json.Unmarshal([]byte(raw), &d); err != nil {
				t.Fatalf("bad data line %q: %v", raw, err)
			}
			data = append(data, d)
		}
	}
	return names, data
}

const mainBody = `{"model":"m","max_tokens":1000,"stream":true,"tools":[{"name":"Write"}],
	"messages":[{"role":"user","content":"make a.txt"},
	{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"a.txt"}}]},
	{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"File created"}]}]}]}`

func TestStreamsScriptedTurn(t *testing.T) {
	srv := New(t, Sequence(Reply(Text("hi"), Write("b.txt", "x"))))
	resp := post(t, srv, "/v1/messages?beta=true", mainBody)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	names, data := sse(t, resp.Body)
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("events = %q\nwant %q", names, want)
	}
	var input string
	for _, d := range data[5:7] {
		input += d["delta"].(map[string]any)["partial_json"].(string)
	}
	if input != `{"content":"x","file_path":"b.txt"}` {
		t.Errorf("assembled tool input = %s", input)
	}
	if stop := data[8]["delta"].(map[string]any)["stop_reason"]; stop != "tool_use" {
		t.Errorf("stop_reason = %v", stop)
	}

	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].N != 1 || reqs[0].Prompt() != "make a.txt" || !reqs[0].HasTool("Write") {
		t.Fatalf("recorded %+v", reqs)
	}
	if uses := reqs[0].ToolUses(); len(uses) != 1 || uses[0].Name != "Write" {
		t.Errorf("tool uses = %+v", uses)
	}
	if res := reqs[0].ToolResults(); len(res) != 1 || res[0].ResultText() != "File created" {
		t.Errorf("tool results = %+v", res)
	}
}

func TestSideRequestsAndOtherEndpoints(t *testing.T) {
	srv := New(t, func(*Request) Turn {
		t.Error("script called for a side request")
		return Turn{}
	})
	resp := post(t, srv, "/v1/messages", `{"model":"small","max_tokens":512,"messages":[{"role":"user","content":"title?"}]}`)
	var msg struct {
		Content []struct{ Type, Text string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil || len(msg.Content) != 1 || msg.Content[0].Text != "ok" {
		t.Errorf("side reply = %+v, %v", msg, err)
	}
	if len(srv.SideRequests()) != 1 || len(srv.Requests()) != 0 {
		t.Errorf("side %d, main %d", len(srv.SideRequests()), len(srv.Requests()))
	}
	if body, _ := io.ReadAll(post(t, srv, "/v1/messages/count_tokens", mainBody).Body); !strings.Contains(string(body), `"input_tokens"`) {
		t.Errorf("count_tokens = %s", body)
	}
	if resp := post(t, srv, "/v1/files", "{}"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown endpoint status %d", resp.StatusCode)
	}
	if other := srv.Other(); !reflect.DeepEqual(other, []string{"POST /v1/files"}) {
		t.Errorf("other = %q", other)
	}
}

func TestFailTurn(t *testing.T) {
	srv := New(t, func(*Request) Turn { return Fail(529, "overloaded_error", "busy") })
	resp := post(t, srv, "/v1/messages", mainBody)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 529 || !strings.Contains(string(body), `"type":"overloaded_error"`) {
		t.Errorf("got %d %s", resp.StatusCode, body)
	}
}

func TestCloseEndsHangingTurn(t *testing.T) {
	var status int
	done := make(chan struct{})
	t.Run("hang", func(t *testing.T) {
		srv := New(t, func(*Request) Turn { return Hang() })
		go func() {
			defer close(done)
			resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(mainBody))
			if err == nil {
				status = resp.StatusCode
				resp.Body.Close()
			}
		}()
		for len(srv.Requests()) == 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}) // the subtest's cleanup closes the server while the turn hangs
	<-done
	if status != http.StatusServiceUnavailable {
		t.Errorf("hanging request ended with status %d", status)
	}
}

// TestRepeatedTurnAnsweredAsBefore: claude asks the turn it was answered
// again (its non-streamed fallback after a broken stream): the script is
// not asked twice, the answer is the same, and Requests counts the turn once.
func TestRepeatedTurnAnsweredAsBefore(t *testing.T) {
	calls := 0
	srv := New(t, func(*Request) Turn {
		calls++
		return Reply(Text(fmt.Sprint("answer ", calls)))
	})
	ask := func(session, body string) string {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages", strings.NewReader(body))
		req.Header.Set("X-Claude-Code-Session-Id", session)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	unstreamed := strings.Replace(mainBody, `"stream":true`, `"stream":false`, 1)
	first, again := ask("s1", mainBody), ask("s1", unstreamed)
	if !strings.Contains(first, "answer 1") || !strings.Contains(again, "answer 1") {
		t.Fatalf("answers:\n%s\n%s", first, again)
	}
	if n, r := len(srv.Requests()), len(srv.Repeats()); n != 1 || r != 1 || calls != 1 {
		t.Fatalf("requests %d, repeats %d, script calls %d; want 1, 1, 1", n, r, calls)
	}
	ask("s2", mainBody) // another session's same messages are a turn of its own
	if n := len(srv.Requests()); n != 2 || calls != 2 {
		t.Errorf("requests %d, script calls %d after another session asked; want 2, 2", n, calls)
	}
}
