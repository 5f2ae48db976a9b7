package worker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/agent/mcp"
	"github.com/bh-tracker/bh/agent/sandbox/egress"
	"github.com/bh-tracker/bh/agent/sandbox/egress/egresstest"
	"github.com/bh-tracker/bh/agent/sandbox/gocache"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/store"
)

// The test binary doubles as a second bh process, so that claims and
// crashes are tested across real processes. BH_WORKER_HELPER picks the role.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "mcp" { // claude starting bh's MCP server (jail.MCPCommand)
		os.Exit(helperMCP())
	}
	if len(os.Args) > 1 && os.Args[1] == egress.Command { // a sandbox starting its network's bridge
		os.Exit(egresstest.Main(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == gocache.Command { // go in a sandbox starting its build cache
		os.Exit(gocache.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	switch os.Getenv("BH_WORKER_HELPER") {
	case "":
		// Task worktrees, bh serve's web config and the registry are the
		// tests' own, in a home of their own.
		fakeapi.Overlap(4)
		os.Exit(fakeapi.Isolated(m.Run))
	case "hang":
		os.Exit(helperHang())
	case "shepherd":
		os.Exit(helperShepherd())
	case "killreset":
		os.Exit(helperKillReset())
	case "killcheck":
		os.Exit(helperKillCheck())
	case "enumerate":
		os.Exit(helperEnumerate())
	}
	fmt.Fprintln(os.Stderr, "unknown helper")
	os.Exit(2)
}

// helperHang runs a worker whose agent leaves partial work and then hangs
// until the process is killed.
func helperHang() int {
	s, err := store.Find(".")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	hang := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		os.WriteFile(filepath.Join(req.Dir, "half.txt"), []byte("half done\n"), 0o644)
		fmt.Println("started", req.SessionID)
		select {}
	})
	ctx := context.Background()
	if err := Run(ctx, ctx, s, Options{Runner: hang, Once: true}); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	return 0
}

// helperMCP is bh mcp: the MCP server of the task in $BH_TASK_ID, whose
// store is found from the working directory (the task's worktree).
func helperMCP() int {
	s, err := store.Find(".")
	if err == nil {
		err = mcp.Serve(context.Background(), s, os.Getenv("BH_TASK_ID"), os.Getenv(mcp.OutboxEnv),
			os.Getenv(mcp.PhaseEnv) == mcp.PhasePlan, &sdk.StdioTransport{})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bh mcp:", err)
		return 1
	}
	return 0
}
