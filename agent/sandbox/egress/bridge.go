package egress

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
)

// Bridge is the agent's parent inside the sandbox: it listens on the
// namespace's loopback and carries connections to the proxy's socket.
type Bridge struct {
	Socket string // the proxy's unix socket, bound into the sandbox
	Listen string // where HTTP(S)_PROXY points, 127.0.0.1:port
	// Forward are host:port the agent connects to directly rather than
	// through the proxy (clients such as Go's skip proxies for
	// loopback): the model API's, when it listens on loopback. Each is
	// tunnelled through the proxy to the same host:port outside.
	Forward []string
	Argv    []string // the agent
	Stderr  io.Writer
}

// Run listens, starts the agent, passes on the signals the agent would
// not get otherwise, and returns the agent's exit code (128+n when
// signal n ended it, 127 when it could not start, 1 when the bridge
// could not listen).
func (b Bridge) Run() int {
	if len(b.Argv) == 0 {
		fmt.Fprintln(b.Stderr, "bh sandbox-bridge: no command")
		return 1
	}
	if err := b.listen(); err != nil {
		fmt.Fprintln(b.Stderr, "bh sandbox-bridge:", err)
		return 1
	}
	// SIGINT is caught and dropped: it comes from the terminal, to the
	// whole process group, so the agent has it already (claude ends on
	// a second one). The others may be sent to the bridge alone.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2)
	cmd := exec.Command(b.Argv[0], b.Argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(b.Stderr, "bh sandbox-bridge: %v\n", err)
		return 127
	}
	go func() {
		for s := range sigs {
			if s != syscall.SIGINT {
				cmd.Process.Signal(s)
			}
		}
	}()
	err := cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(b.Stderr, "bh sandbox-bridge: %v\n", err)
		return 1
	}
	return 0
}

// ForwardRefused begins the bridge's error for a local API (the agent's
// base URL on this machine) it cannot forward inside the sandbox.
const ForwardRefused = "cannot forward"

// listen opens the proxy's port and the forwards and serves them.
func (b Bridge) listen() error {
	ln, err := net.Listen("tcp", b.Listen)
	if err != nil {
		return err
	}
	go serve(ln, func(c net.Conn) { b.pipe(c, "") })
	for _, f := range b.Forward {
		host, port, err := net.SplitHostPort(f)
		if err != nil {
			return err
		}
		hosts := []string{host}
		if host == "localhost" {
			hosts = []string{"127.0.0.1", "::1"}
		}
		for i, h := range hosts {
			ln, err := net.Listen("tcp", net.JoinHostPort(h, port))
			if n, _ := strconv.Atoi(port); err != nil && i == 0 && n < 1024 {
				return fmt.Errorf("%s %s: %w: %s", ForwardRefused, f, err, "the sandbox opens no port below 1024")
			} else if err != nil && i == 0 {
				return err
			} else if err != nil {
				continue // localhost's IPv6 address, where the namespace has none
			}
			go serve(ln, func(c net.Conn) { b.pipe(c, f) })
		}
	}
	return nil
}

func serve(ln net.Listener, handle func(net.Conn)) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go handle(c)
	}
}

// pipe carries c to the proxy: as it is, or, for a forward to dest, in a
// CONNECT tunnel to dest.
func (b Bridge) pipe(c net.Conn, dest string) {
	defer c.Close()
	up, err := net.Dial("unix", b.Socket)
	if err != nil {
		return
	}
	defer up.Close()
	var from io.Reader = up
	if dest != "" {
		fmt.Fprintf(up, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", dest, dest)
		br := bufio.NewReader(up)
		res, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
		if err != nil || res.StatusCode != http.StatusOK {
			return
		}
		from = br
	}
	done := make(chan struct{})
	go func() {
		io.Copy(up, c)
		closeWrite(up)
		close(done)
	}()
	io.Copy(c, from)
	closeWrite(c)
	<-done
}
