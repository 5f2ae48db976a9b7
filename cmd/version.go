package cmd

import (
	"fmt"
	"runtime/debug"

	"github.com/bh-tracker/bh/agent"
)

// version is bh's release for --version (buildName), then the agent CLI
// releases bh was tested with, from agent's one list of them.
func version() string {
	return fmt.Sprintf("bh %s\ntested with %s\ntested with %s\n", buildName(), tested(agent.ClaudeTested), tested(agent.CodexTested))
}

// buildName is the module's version when built from a tagged module, else
// "devel", with the commit it was built from (and "+dirty" for
// uncommitted changes).
func buildName() string {
	v, rev := "devel", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if m := info.Main.Version; m != "" && m != "(devel)" {
			v = m
		}
		dirty := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" && dirty {
			rev += "+dirty"
		}
	}
	if rev != "" {
		v += " (" + rev + ")"
	}
	return v
}

func tested(t agent.Tested) string {
	if t.Min == t.Max {
		return fmt.Sprintf("%s %s (%s)", t.Name, t.Max, t.Package)
	}
	return fmt.Sprintf("%s %s to %s (%s)", t.Name, t.Min, t.Max, t.Package)
}
