// Package gocache is the Go build cache of a sandboxed run, as a
// GOCACHEPROG server (Go 1.24 and later): it finds what the user's own
// build cache holds, read-only, and keeps what the run builds in the
// run's own folder. So a task's first build is as quick as the user's
// own, and nothing a run builds, or plants, reaches the user's cache or
// another task's. go starts it inside the sandbox, as bh's own binary
// (bh sandbox-gocache USER OWN); the protocol is cmd/go's cacheprog: JSON
// requests and responses, one a line, on its stdin and stdout. Both
// folders hold entries in go's own disk format (v1 <action> <output>
// <size> <time> in <aa>/<action>-a, the output in <oo>/<output>-d).
package gocache

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Command is bh's hidden command that serves the cache.
const Command = "sandbox-gocache"

type request struct {
	ID                 int64
	Command            string
	ActionID, OutputID []byte
	BodySize           int64
}

type response struct {
	ID            int64
	Err           string   `json:",omitempty"`
	KnownCommands []string `json:",omitempty"`
	Miss          bool     `json:",omitempty"`
	OutputID      []byte   `json:",omitempty"`
	Size          int64    `json:",omitempty"`
	DiskPath      string   `json:",omitempty"`
}

// Main serves go on stdin and stdout; args are the user's build cache and
// the run's own folder.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: bh "+Command+" USER-GOCACHE OWN-FOLDER")
		return 2
	}
	if err := Serve(stdin, stdout, args[0], args[1]); err != nil {
		fmt.Fprintln(stderr, "bh "+Command+":", err)
		return 1
	}
	return 0
}

// Serve answers go's requests until it closes: a get from own, else from
// user; a put into own.
func Serve(in io.Reader, out io.Writer, user, own string) error {
	dec, enc := json.NewDecoder(bufio.NewReader(in)), json.NewEncoder(out)
	if err := enc.Encode(response{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	for {
		var req request
		if err := dec.Decode(&req); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		res := response{ID: req.ID}
		switch req.Command {
		case "get":
			res.Miss = true
			for _, dir := range []string{own, user} {
				if out, size, path, ok := lookup(dir, req.ActionID); ok {
					res.Miss, res.OutputID, res.Size, res.DiskPath = false, out, size, path
					break
				}
			}
		case "put":
			var body []byte
			if req.BodySize > 0 {
				if err := dec.Decode(&body); err != nil { // a base64 JSON string
					return err
				}
			}
			path, err := put(own, req.ActionID, req.OutputID, body)
			res.DiskPath = path
			if err != nil {
				res.Err = err.Error()
			}
		case "close":
			return enc.Encode(res)
		default:
			res.Err = "unknown command " + req.Command
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
}

func file(dir string, id []byte, kind string) string {
	h := hex.EncodeToString(id)
	if len(h) < 2 {
		return ""
	}
	return filepath.Join(dir, h[:2], h+"-"+kind)
}

// lookup finds action in dir: its output's id, size and file.
func lookup(dir string, action []byte) (out []byte, size int64, path string, ok bool) {
	b, err := os.ReadFile(file(dir, action, "a"))
	f := strings.Fields(string(b))
	if err != nil || len(f) != 5 || f[0] != "v1" || f[1] != hex.EncodeToString(action) {
		return nil, 0, "", false
	}
	if out, err = hex.DecodeString(f[2]); err != nil {
		return nil, 0, "", false
	}
	if size, err = strconv.ParseInt(f[3], 10, 64); err != nil {
		return nil, 0, "", false
	}
	path = file(dir, out, "d")
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() != size {
		return nil, 0, "", false
	}
	return out, size, path, true
}

// put keeps body as action's output in dir, and says where.
func put(dir string, action, out, body []byte) (string, error) {
	path := file(dir, out, "d")
	entry := fmt.Sprintf("v1 %x %x %20d %20d\n", action, out, len(body), time.Now().UnixNano())
	if path == "" || len(action) == 0 {
		return "", errors.New("put without ids")
	}
	if err := write(path, body); err != nil {
		return "", err
	}
	return path, write(file(dir, action, "a"), []byte(entry))
}

// write replaces path with data through a temporary file.
func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
