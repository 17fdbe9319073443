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

// runTimed runs a shell command line `runs` times and returns the median wall time and the largest peak RSS
// of any process it started (measured in a fresh child of ours, so earlier runs don't count).
func runTimed(dir, cmdline string, env []string, runs int) (result, error) {
	var walls, cpus []time.Duration
	var rss int64
	for k := 0; k < runs; k++ {
		self, err := os.Executable()
		if err != nil {
			return result{}, err
		}
		cmd := exec.Command(self, "-rss-of", cmdline)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		err = cmd.Run()
		walls = append(walls, time.Since(start))
		if err != nil {
			return result{}, fmt.Errorf("%s: %v\n%s", cmdline, err, errb.String())
		}
		var kb, cpuUS int64
		fmt.Sscan(strings.TrimSpace(out.String()), &kb, &cpuUS)
		cpus = append(cpus, time.Duration(cpuUS)*time.Microsecond)
		if kb > rss {
			rss = kb
		}
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	return result{wall: walls[len(walls)/2], cpu: cpus[len(cpus)/2], rssKB: rss}, nil
}

// rssOf is the child side of runTimed: run the command line with sh, then print the peak RSS in KiB of the
// largest process it waited for (getrusage RUSAGE_CHILDREN covers grandchildren such as tar's gzip), and the CPU
// time, user and system, of all of them in microseconds.
func rssOf(cmdline string) {
	cmd := exec.Command("sh", "-c", cmdline+" >/dev/null")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(childrenUsage())
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
