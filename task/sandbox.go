package task

// Sandbox modes: the config's sandbox: and a task's own.
const (
	SandboxAuto     = "auto"     // sandboxed when bubblewrap can run here (the default)
	SandboxOff      = "off"      // never
	SandboxRequired = "required" // sandboxed, or refused
)

// SandboxModes are the values a sandbox mode takes.
var SandboxModes = []string{SandboxAuto, SandboxOff, SandboxRequired}

// CheckSandboxMode accepts a mode, or nothing.
func CheckSandboxMode(m string) error { return checkOneOf(m, SandboxModes) }
