// Command git-bernstein-full builds, signs and verifies per-ticket evidence bundles: every command of
// git-bernstein. git runs git-bernstein (cmd/git-bernstein), the front, which answers `commits` itself and
// hands every other command line here (package front); install both, side by side.
package main

import (
	"os"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/cli"
	"github.com/git-bernstein/git-bernstein/internal/gcpace"
)

func main() {
	env := &cli.Env{Getenv: os.Getenv, Now: time.Now, SmallHeap: gcpace.CollectLate, LongHeap: gcpace.CollectLess}
	os.Exit(cli.RunEnv(env, os.Args, os.Stdin, os.Stdout, os.Stderr))
}
