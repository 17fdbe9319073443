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
// allowed) is started directly, without a shell; a line with a pipe, redirection or other shell syntax runs
// under sh, whose start-up it then includes. Timed through `sh -c` in a re-exec of this program, as before, every
// run of either side carried about 2.5 ms of harness: a quarter of a warm run on go-git, and ten times its share
// of a 0.1× target.
//
// The command is still started by a re-exec of this program (timedChild), which times it from start to exit and
// reads wait4's rusage for it (counting the children it waited for, such as tar's gzip). That child must be
// small: Go starts a command with vfork, so until it execs it shares its parent's memory, and Linux counts that
// memory's high-water mark in the command's peak RSS. Started from this process, which holds generated inputs,
// a 19 MiB `record` read as 64 MiB; started from the re-exec, no command reads below its 8 MiB.
func runTimed(dir, cmdline string, env []string, runs int) (result, error) {
	setup, measured := splitSetup(cmdline)
	argv, plain := plainWords(measured)
	if !plain {
		argv = []string{"sh", "-c", measured}
	}
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
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
		cmd := exec.Command(self, append([]string{"-timed", "--"}, argv...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return result{}, fmt.Errorf("%s: %v\n%s", cmdline, err, errb.String())
		}
		var wallNS, kb, cpuUS int64
		if n, _ := fmt.Sscan(out.String(), &wallNS, &kb, &cpuUS); n != 3 {
			return result{}, fmt.Errorf("%s: the timing child printed %q", cmdline, out.String())
		}
		walls = append(walls, time.Duration(wallNS))
		cpus = append(cpus, time.Duration(cpuUS)*time.Microsecond)
		rss = max(rss, kb)
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	return result{wall: walls[len(walls)/2], cpu: cpus[len(cpus)/2], rssKB: rss}, nil
}

// timedChild is the child side of runTimed: it runs argv with its output to /dev/null (the file itself, as
// `>/dev/null` does: through a pipe this process would copy it while the command runs), and prints the wall
// time in nanoseconds from start to exit, the peak RSS in KiB and the CPU time in microseconds.
func timedChild(argv []string) int {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = devNull, os.Stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	kb, cpuUS := childUsage(cmd.ProcessState)
	fmt.Println(wall.Nanoseconds(), kb, cpuUS)
	return 0
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
