// Package fakeapi is a fake Anthropic Messages API for driving the real
// Claude Code CLI in tests: a Script plays the model, and every request is
// recorded so that tests can assert what claude sent.
//
//	srv := fakeapi.New(t, fakeapi.Sequence(
//		fakeapi.Reply(fakeapi.Write("a.txt", "a\n")),
//		fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "ok"})),
//	))
//	cmd := exec.Command(fakeapi.Claude(t), "-p", "--output-format", "json", ...)
//	cmd.Env = append(os.Environ(), fakeapi.Env(t, srv)...)
//
// What claude 2.1.330 does against it, found by experiment:
//
//   - In print mode it makes one streaming POST /v1/messages per model turn
//     and, with Env's settings, no other call: no count_tokens, no title or
//     quota side requests, no /api/hello probe (sent only when nonessential
//     traffic is allowed). Requests without tools are still answered
//     ("ok") and kept apart as side requests.
//   - Each tool call is run and answered in the next request's last user
//     message as tool_result blocks. Write accepts paths relative to the cwd
//     and, with --permission-mode acceptEdits, succeeds inside it.
//   - With --json-schema the tools include StructuredOutput, whose input
//     schema is the given schema. A turn calling it ends the run at once:
//     claude makes no further request, and prints the input as
//     structured_output (and, as JSON text, as result).
//   - A turn that ends with text only and no StructuredOutput call gets one
//     more request whose last user text starts with
//     "[structured-output-enforce]"; if that turn is text again, the run
//     succeeds without structured_output and result is the last text.
//   - An HTTP error ends the run at once given CLAUDE_CODE_MAX_RETRIES=0
//     (otherwise claude retries with backoff for minutes): exit status 1,
//     is_error true, result "API Error: <status> <message>...".
//   - Even then, a stream that breaks is asked again, once, not streamed
//     (seen once in CI, under load): the same messages in the same session
//     (X-Claude-Code-Session-Id). The server answers such a repeat as the
//     turn before it and keeps it out of Requests (see Repeats).
//   - --resume <id> from the same cwd and HOME sends the whole earlier
//     conversation (prompt, tool calls and results, final turn) followed by
//     the new prompt; --session-id with a used id, or --resume with an
//     unknown one, fail before any request with exit status 1.
//   - Messages hold a "system" role entry after the first user message
//     (environment details), and the user's prompt follows injected
//     <system-reminder> text blocks; Request.UserTexts skips those.
//
// Usage limits and spend (see LIMITS.md in package agent for what each CLI
// version prints):
//
//   - srv.Exhaust(reset, n) answers model requests with the exhausted
//     window the real APIs send: 429, anthropic-ratelimit-unified-status
//     rejected, -reset <epoch>, -representative-claim five_hour (and the
//     -5h- variants claude reads per window), retry-after; on the
//     Responses fake a usage_limit_reached body with resets_at. It lasts
//     until reset, or for n requests when n > 0; refused requests reach
//     no script (srv.Refused counts them). A script may call it to cut a
//     run short from the next request on.
//   - turn.Warn(reset) answers normally with the window at allowed_warning.
//   - Turn.Tokens reports that many tokens of usage (half input, half
//     output), so a run's spend crosses a budget mid-run. claude streams
//     the input half at once (its output count only at the end); keep to
//     some 100,000: after a turn of millions claude compacts its
//     conversation, and fails.
//   - Subscriber(Env(t, srv)) logs claude in with a plan's token instead
//     of an API key: only then does claude print rate_limit_event and the
//     reset of a refusal.
//
// Scripts run on the server's goroutines, one at a time: report problems
// with t.Errorf, never t.Fatal.
//
// The package also holds the suite's tier rules (tier.go).
//
// It is test-only, yet it stays at agent/fakeapi rather than under
// agent/internal/: cmd's and worker's tests run the real CLIs against it,
// and Go's internal rule would forbid them to import agent/internal/.
package fakeapi
