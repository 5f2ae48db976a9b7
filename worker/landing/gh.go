package landing

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent/proc"
)

// ghTimeout bounds one gh call: a pull request's API answers in seconds.
const ghTimeout = 2 * time.Minute

// ghOutput caps what bh keeps of gh's output (a job's log is cut to its tail).
const ghOutput = 4 << 20

// GH is the GitHub CLI, run with the user's own authentication in the
// repository's root (Dir); Bin "" is gh on PATH.
type GH struct{ Bin, Dir string }

// run runs gh; stdin may be "".
func (g GH) run(ctx context.Context, stdin string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	errOut := proc.NewCapWriter(64<<10, 4<<10)
	bin := g.Bin
	if bin == "" {
		bin = "gh"
	}
	cmd := proc.Cmd{Argv: append([]string{bin}, args...), Dir: g.Dir, Stdout: &out,
		Stderr: errOut, Timeout: ghTimeout,
		Env: []string{"GH_PROMPT_DISABLED=1", "NO_COLOR=1", "GH_NO_UPDATE_NOTIFIER=1"}}
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	res, err := proc.Run(ctx, cmd)
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", res.ExitCode)
	}
	if err != nil {
		return nil, fmt.Errorf("gh %s: %w: %s", strings.Join(args[:min(2, len(args))], " "), err,
			strings.TrimSpace(string(errOut.Bytes())))
	}
	if out.Len() > ghOutput {
		return out.Bytes()[out.Len()-ghOutput:], nil
	}
	return out.Bytes(), nil
}

// api reads one REST endpoint of the pull request's host into v.
func (g GH) api(ctx context.Context, p prRef, path string, v any) error {
	out, err := g.run(ctx, "", "api", "--hostname", p.Host, fmt.Sprintf("repos/%s/%s/%s", p.Owner, p.Repo, path))
	if err != nil {
		return err
	}
	if s, ok := v.(*string); ok {
		*s = string(out)
		return nil
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("gh api %s: %w", path, err)
	}
	return nil
}

// prRef is a pull request as its URL names it: the task file keeps the
// URL, so that any machine's worker can shepherd it.
type prRef struct {
	Host, Owner, Repo string
	Number            int
}

var prURL = regexp.MustCompile(`^https?://([^/]+)/([^/]+)/([^/]+)/pull/(\d+)`)

func parsePR(url string) (prRef, bool) {
	m := prURL.FindStringSubmatch(strings.TrimSpace(url))
	if m == nil {
		return prRef{}, false
	}
	var n int
	fmt.Sscan(m[4], &n)
	return prRef{Host: m[1], Owner: m[2], Repo: m[3], Number: n}, true
}

// ghRepo is the [HOST/]OWNER/REPO a pull request is opened on: $GH_REPO
// when set (a remote whose URL is not GitHub's), else the remote's URL.
func ghRepo(remoteURL string) string {
	if r := os.Getenv("GH_REPO"); r != "" {
		return r
	}
	u := strings.TrimSuffix(strings.TrimSpace(remoteURL), ".git")
	if rest, ok := strings.CutPrefix(u, "git@"); ok { // git@github.com:owner/repo
		return strings.Replace(rest, ":", "/", 1)
	}
	for _, p := range []string{"https://", "http://", "ssh://git@"} {
		if rest, ok := strings.CutPrefix(u, p); ok {
			return rest
		}
	}
	return ""
}
