//go:build tools

// Package tools only anchors the agent-sandbox requirement in this wrapper
// module; setup.sh builds its controller from here.
package tools

import _ "sigs.k8s.io/agent-sandbox/cmd/agent-sandbox-controller"
