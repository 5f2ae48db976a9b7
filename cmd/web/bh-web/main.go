// Command bh-web is bh with its web inbox linked: bh serve runs it in its
// place (bh itself does not link the inbox, whose libraries would cost
// every bh command its start-up: cmd/serve.go). Build it beside bh:
//
//	go build -o ~/.local/bin/ ./cmd/web/bh-web
package main

import (
	"os"

	"github.com/bh-tracker/bh/cmd"
	"github.com/bh-tracker/bh/cmd/web"
)

func main() { os.Exit(cmd.MainInbox(web.Inbox)) }
