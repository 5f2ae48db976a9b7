package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one JSON-RPC message from the agent, as the SDK does.
const maxLine = sdk.DefaultMaxLineLength

// GuardedTransport is a stdio transport that survives a malformed line: the
// SDK ends the whole connection on one message it cannot decode, and with
// it every tool of the run. A line that is not a JSON-RPC message (or a
// batch of them) is answered with JSON-RPC's parse error and dropped;
// warn, if not nil, hears of it.
func GuardedTransport(in io.Reader, out io.WriteCloser, warn func(string)) sdk.Transport {
	pr, pw := io.Pipe()
	w := &lockedWriter{w: out}
	go func() { pw.CloseWithError(guard(in, pw, w, warn)) }()
	return &sdk.IOTransport{Reader: pr, Writer: w, MaxLineLength: maxLine}
}

// guard copies the messages of in to pass, a line each, and answers the rest.
func guard(in io.Reader, pass io.Writer, reply io.Writer, warn func(string)) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 {
			if why := invalid(line); why != "" {
				if warn != nil {
					warn("bh mcp: dropped a line that is not a JSON-RPC message: " + why)
				}
				b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
					"error": map[string]any{"code": -32700, "message": "parse error: " + why}})
				if _, werr := reply.Write(append(b, '\n')); werr != nil {
					return werr
				}
			} else if _, werr := pass.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// errTooLong marks a line past maxLine; the rest of it is skipped.
var errTooLong = errors.New("line too long")

// readLine returns the next line without its newline; a line past maxLine
// comes back as a marker, so that it is refused rather than buffered.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			return []byte(errTooLong.Error()), err
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, err
	}
}

// invalid says why line is not a JSON-RPC message or batch; "" if it is.
func invalid(line []byte) string {
	if string(line) == errTooLong.Error() {
		return fmt.Sprintf("over %d bytes", maxLine)
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		if len(batch) == 0 {
			return "an empty batch"
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return err.Error()
			}
		}
		return ""
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return err.Error()
	}
	return ""
}

// lockedWriter lets the guard's replies and the SDK's messages share out,
// a whole line at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }
