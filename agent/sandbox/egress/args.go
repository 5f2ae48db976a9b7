package egress

import (
	"errors"
	"fmt"
)

// Command is bh's command that runs a Bridge.
const Command = "sandbox-bridge"

// Args are b's command line after bh's binary: what ParseArgs reads.
func (b Bridge) Args() []string {
	a := []string{Command, "--socket", b.Socket, "--listen", b.Listen}
	for _, f := range b.Forward {
		a = append(a, "--forward", f)
	}
	return append(append(a, "--"), b.Argv...)
}

// ParseArgs reads a bridge's command line after its command's name:
// --socket PATH --listen ADDR [--forward ADDR]... -- COMMAND [ARG]...
func ParseArgs(args []string) (Bridge, error) {
	var b Bridge
	for len(args) > 0 {
		flag := args[0]
		if flag == "--" {
			b.Argv = args[1:]
			break
		}
		if len(args) < 2 {
			return b, fmt.Errorf("%s: want a value", flag)
		}
		switch v := args[1]; flag {
		case "--socket":
			b.Socket = v
		case "--listen":
			b.Listen = v
		case "--forward":
			b.Forward = append(b.Forward, v)
		default:
			return b, fmt.Errorf("unknown flag %q", flag)
		}
		args = args[2:]
	}
	if b.Socket == "" || b.Listen == "" || len(b.Argv) == 0 {
		return b, errors.New("want --socket PATH --listen ADDR, then -- and the command")
	}
	return b, nil
}
