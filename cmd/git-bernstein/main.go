// Command git-bernstein builds, signs and verifies per-ticket evidence bundles. Installed on PATH, git runs it
// as `git bernstein …`. It is the front (package front): it answers `commits` itself, which it links alone so
// that it starts fast, and hands every other command line to git-bernstein-full, installed beside it.
package main

import (
	"os"

	"github.com/git-bernstein/git-bernstein/internal/front"
	"github.com/git-bernstein/git-bernstein/internal/gcpace"
)

func main() {
	env := front.Env{Getenv: os.Getenv, SmallHeap: gcpace.CollectLate, LongHeap: gcpace.CollectLess}
	code, handled := front.Run(env, os.Args, os.Stdout, os.Stderr)
	if !handled {
		code = front.Handover(os.Args, os.Stderr)
	}
	os.Exit(code)
}
