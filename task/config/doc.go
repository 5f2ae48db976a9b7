// Package config reads .bh/config.yaml (agents, policy, checks, sandbox,
// notifications, the web server) with file:line errors, and keeps the
// user's own files under $XDG_CONFIG_HOME/bh, such as the registry of
// repositories bh inbox looks at.
package config
