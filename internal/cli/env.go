package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/github"
)

// Env is what one run of the program takes from its surroundings: the folder it starts from, the environment
// variables, the clock, the GitHub time budget and the run's standard error. main passes the process's own
// (the clock and the garbage collector's pace are set there, nowhere in this package); tests pass their own to
// RunEnv, so commands run side by side with no package-level state to swap (no os.Chdir, no t.Setenv).
type Env struct {
	Dir       string              // the folder commands start from; "" means the process's working folder
	Getenv    func(string) string // nil means os.Getenv
	Now       func() time.Time    // the clock; RunEnv refuses to run without one
	PRTimeout time.Duration       // all GitHub requests of one bundle together; 0 means github.DefaultTimeout
	// SmallHeap is called by a command whose run is usually short and small (commits, answered from the ticket
	// index), and LongHeap once it holds a node per commit of history until it exits (commits, walking all
	// history): main sets the garbage collector's pace for each (package gcpace). nil: nothing changes.
	SmallHeap, LongHeap func()

	stderr io.Writer // the run's standard error (RunEnv sets it), for what packages report while they work
}

// notice writes one line a package reports while it works (gitext running git for a partial clone's objects) to
// the run's standard error, prefixed "notice: ".
func (e *Env) notice(msg string) {
	if e.stderr != nil {
		fmt.Fprintf(e.stderr, "notice: %s\n", msg)
	}
}

func (e *Env) getwd() (string, error) {
	if e.Dir != "" {
		return e.Dir, nil
	}
	return os.Getwd()
}

// getenv is the environment lookup handed to everything that reads variables (git discovery and config too).
func (e *Env) getenv(key string) string {
	if e.Getenv != nil {
		return e.Getenv(key)
	}
	return os.Getenv(key)
}

func (e *Env) now() time.Time { return e.Now() }

// expandHome puts the run's $HOME in place of a leading "~/" (a path flag, a path from git's configuration).
func (e *Env) expandHome(p string) string {
	p, _ = gitext.ExpandHome(p, e.getenv)
	return p
}

// smallHeap tells main that this run is usually short and small (SmallHeap).
func (e *Env) smallHeap() {
	if e.SmallHeap != nil {
		e.SmallHeap()
	}
}

// longHeap tells main that this run holds a large heap until it exits (LongHeap).
func (e *Env) longHeap() {
	if e.LongHeap != nil {
		e.LongHeap()
	}
}

func (e *Env) prTimeout() time.Duration {
	if e.PRTimeout > 0 {
		return e.PRTimeout
	}
	return github.DefaultTimeout
}

// in is the same surroundings started from dir (bundle --workdir).
func (e *Env) in(dir string) *Env {
	cp := *e
	cp.Dir = dir
	return &cp
}

// envKey is where the run's Env sits in the app's Metadata.
const envKey = "git-bernstein.env"

// envOf returns the run's Env.
func envOf(c *ucli.Command) *Env {
	if e, ok := c.Root().Metadata[envKey].(*Env); ok {
		return e
	}
	return &Env{}
}
