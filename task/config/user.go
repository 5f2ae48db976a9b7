package config

import (
	"os"
	"os/user"
)

// UserName is this machine's user: who "you" is when task.Who names
// whoever answered, and the name bh serve and bh continue answer as.
func UserName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "unknown"
}
