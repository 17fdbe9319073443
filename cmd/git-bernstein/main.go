// Command git-bernstein builds, signs and verifies per-ticket evidence bundles.
// Installed on PATH, git runs it as `git bernstein …`.
package main

import (
	"os"

	"github.com/git-bernstein/git-bernstein/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
