package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

// result is one timed run of a command.
type result struct {
	wall  time.Duration
	cpu   time.Duration // user plus system time of every process it started (median run)
	rssKB int64
}

// timingNote says in the report what runTimed times.
const timingNote = "Each command is timed alone, as hyperfine subtracts its shell: a set-up before a command line's last `&&`\n" +
	"(clearing a cache) runs first, untimed, and a command of plain words is started without a shell (a pipeline\n" +
	"runs under sh, whose start-up it then includes).\n\n"

// runTimed runs a shell command line `runs` times and returns the median wall time, the median CPU time and the
// largest peak RSS of the measured command and any process it started.
//
// What is timed is the command alone, as hyperfine subtracts its shell's start-up: a setup before the line's
// last " && " (clearing a cache) runs first and is not timed, and a command of plain words (single quotes
// allowed) is started directly, without a shell. Through `sh -c` (and before that, a re-exec of this program to
// read getrusage), every run of either side carried about 2.5 ms of harness, a quarter of a warm run on go-git
// and ten times its share of a 0.1× target. A line with a pipe, redirection or other shell syntax runs under
// sh, whose own start-up it then includes. CPU time and peak RSS are wait4's for that one child, which count
// the children it waited for (tar's gzip) as getrusage(RUSAGE_CHILDREN) did.
func runTimed(dir, cmdline string, env []string, runs int) (result, error) {
	setup, measured := splitSetup(cmdline)
	argv, plain := plainWords(measured)
	if !plain {
		argv = []string{"sh", "-c", measured}
	}
	// Output goes to /dev/null itself, as `>/dev/null` sends it: through a pipe to io.Discard, this process
	// would copy it while the command runs.
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return result{}, err
	}
	defer devNull.Close()
	var walls, cpus []time.Duration
	var rss int64
	for k := 0; k < runs; k++ {
		if setup != "" {
			prep := exec.Command("sh", "-c", setup)
			prep.Dir, prep.Env = dir, append(os.Environ(), env...)
			if out, err := prep.CombinedOutput(); err != nil {
				return result{}, fmt.Errorf("%s: %v\n%s", setup, err, out)
			}
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = devNull, &errb
		start := time.Now()
		err := cmd.Run()
		walls = append(walls, time.Since(start))
		if err != nil {
			return result{}, fmt.Errorf("%s: %v\n%s", cmdline, err, errb.String())
		}
		kb, cpuUS := childUsage(cmd.ProcessState)
		cpus = append(cpus, time.Duration(cpuUS)*time.Microsecond)
		rss = max(rss, kb)
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	return result{wall: walls[len(walls)/2], cpu: cpus[len(cpus)/2], rssKB: rss}, nil
}

// splitSetup splits a command line at its last " && ": what comes before is set-up, what comes after is measured.
func splitSetup(cmdline string) (setup, measured string) {
	if i := strings.LastIndex(cmdline, " && "); i >= 0 {
		return cmdline[:i], cmdline[i+len(" && "):]
	}
	return "", cmdline
}

// plainWords splits a command line of plain words, some in single quotes, as sh would; plain is false for any
// other shell syntax (pipes, redirections, variables, globs, double quotes), which sh must then run.
func plainWords(line string) (words []string, plain bool) {
	var w strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted:
			if c == '\'' {
				quoted = false
			} else {
				w.WriteByte(c)
			}
		case c == '\'':
			quoted, inWord = true, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case strings.IndexByte("|&;<>()$`\\\"*?[]#~=!{}\n", c) >= 0 && !(c == '=' && inWord):
			return nil, false
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, false
	}
	if inWord {
		words = append(words, w.String())
	}
	// VAR=value first is an assignment to sh, not a program.
	return words, len(words) > 0 && !strings.Contains(words[0], "=")
}

func timeFunc(runs int, f func() error) (time.Duration, error) {
	var walls []time.Duration
	for k := 0; k < runs; k++ {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		walls = append(walls, time.Since(start))
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	return walls[len(walls)/2], nil
}
