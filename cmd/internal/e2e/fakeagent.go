package e2e

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// FakeAgent is the coding agent of the worker scripts, configured as
// `agent: {kind: command, command: [fakeagent]}` and run by bh as any
// command agent: prompt on stdin, BH_TASK_ID, BH_SESSION_ID and BH_RESUME
// in the environment, a result object on stdout.
//
// It plays the first plan in $FAKEAGENT_DIR/*.plan whose match line the
// prompt contains. A plan is a list of lines:
//
//	match TEXT       the plan is for prompts containing TEXT (its first line)
//	on first|resume  the lines after it run only on a first or a resumed run
//	on answer TEXT   ... only when the prompt holds TEXT (on noanswer: when not)
//	write PATH TEXT  write TEXT and a newline to PATH (in the repository)
//	rm PATH          remove PATH
//	expect TEXT      exit 3 unless the prompt contains TEXT
//	need PATH        exit 3 unless PATH exists (parked work came back)
//	sh COMMAND       run COMMAND with sh -c, in the agent's directory
//	print TEXT       print TEXT on stdout: a result, or garbage
//	hang             wait until $FAKEAGENT_DIR/release exists (60s at most)
//	exit N           exit with status N
//
// Every run is logged to $FAKEAGENT_DIR/runs.log as
// "run TASK plan=NAME resume=0|1 session=ID same-session=yes|no|first",
// where same-session compares with the task's first run, and its prompt is
// kept in $FAKEAGENT_DIR/TASK.N.prompt (N counting the task's runs).
func FakeAgent() int {
	if err := playPlan(); err != nil {
		fmt.Fprintln(os.Stderr, "fakeagent:", err)
		return 3
	}
	return 0
}

func playPlan() error {
	dir := os.Getenv("FAKEAGENT_DIR")
	if dir == "" {
		return fmt.Errorf("FAKEAGENT_DIR is not set")
	}
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		return err
	}
	prompt := string(in)
	name, lines, err := findPlan(dir, prompt)
	if err != nil {
		return err
	}
	if err := recordRun(dir, name, prompt); err != nil {
		return err
	}
	resume := os.Getenv("BH_RESUME") == "1"
	active := true
	for _, l := range lines {
		verb, arg, _ := strings.Cut(l, " ")
		if verb == "on" {
			// on first|resume, or on answer TEXT / on noanswer TEXT: the
			// prompt holds TEXT or not (a run killed before it asked resumes
			// without an answer).
			when, text, _ := strings.Cut(arg, " ")
			switch when {
			case "answer", "noanswer":
				active = strings.Contains(prompt, text) == (when == "answer")
			default:
				active = (arg == "resume") == resume
			}
			continue
		}
		if !active {
			continue
		}
		if err := playLine(dir, prompt, verb, arg); err == errUnknownLine {
			return fmt.Errorf("plan %s: unknown line %q", name, l)
		} else if err != nil {
			return err
		}
	}
	return nil
}

// errUnknownLine is playLine's answer to a line it does not know.
var errUnknownLine = errors.New("unknown line")

// playLine does what one line of a plan says, but for "on".
func playLine(dir, prompt, verb, arg string) error {
	switch verb {
	case "write":
		path, text, _ := strings.Cut(arg, " ")
		return os.WriteFile(path, []byte(text+"\n"), 0o644)
	case "rm":
		return os.Remove(arg)
	case "expect":
		if !strings.Contains(prompt, arg) {
			return fmt.Errorf("the prompt lacks %q:\n%s", arg, prompt)
		}
	case "need":
		if _, err := os.Stat(arg); err != nil {
			return fmt.Errorf("need %s: %w", arg, err)
		}
	case "sh":
		c := exec.Command("sh", "-c", arg)
		c.Stdout, c.Stderr = os.Stderr, os.Stderr
		if err := c.Run(); err != nil {
			return fmt.Errorf("sh %s: %w", arg, err)
		}
	case "print":
		fmt.Println(arg)
	case "hang":
		waitRelease(filepath.Join(dir, "release"))
	case "exit":
		n, err := strconv.Atoi(arg)
		if err != nil {
			return err
		}
		os.Exit(n)
	default:
		return errUnknownLine
	}
	return nil
}

// waitRelease waits until the file release exists, a minute at most.
func waitRelease(release string) {
	for end := time.Now().Add(fakeapi.Patience(time.Minute)); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(release); err == nil {
			return
		}
	}
}

// findPlan returns the first plan, by file name, that matches the prompt.
func findPlan(dir, prompt string) (string, []string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.plan"))
	if err != nil {
		return "", nil, err
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", nil, err
		}
		var lines []string
		for sc := bufio.NewScanner(strings.NewReader(string(b))); sc.Scan(); {
			if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
		if len(lines) > 0 && strings.Contains(prompt, strings.TrimPrefix(lines[0], "match ")) {
			return strings.TrimSuffix(filepath.Base(f), ".plan"), lines[1:], nil
		}
	}
	return "", nil, fmt.Errorf("no plan in %s matches the prompt:\n%s", dir, prompt)
}

// writeWhole writes body to path whole or not at all: an agent killed
// with its worker half-way through a plain write would leave the first
// session's file empty, and every later run of the task would look like
// one in another session.
func writeWhole(path, body string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// recordRun records the run, and whether it kept the task's first session.
func recordRun(dir, plan, prompt string) error {
	id, session := os.Getenv("BH_TASK_ID"), os.Getenv("BH_SESSION_ID")
	first := filepath.Join(dir, id+".session")
	same := "first"
	if b, err := os.ReadFile(first); err == nil {
		same = "no"
		if string(b) == session {
			same = "yes"
		}
	} else if err := writeWhole(first, session); err != nil {
		return err
	}
	n := 1
	for ; ; n++ {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("%s.%d.prompt", id, n))); err != nil {
			break
		}
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s.%d.prompt", id, n)), []byte(prompt), 0o644); err != nil {
		return err
	}
	resume := cmp.Or(os.Getenv("BH_RESUME"), "0") // bh sets "1" when resuming
	f, err := os.OpenFile(filepath.Join(dir, "runs.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "run %s plan=%s resume=%s session=%s same-session=%s\n", id, plan, resume, session, same)
	return err
}
