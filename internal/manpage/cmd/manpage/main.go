// Command manpage writes git-bernstein's manual page (troff) to standard output; `make install` installs it.
package main

import (
	"os"

	"github.com/git-bernstein/git-bernstein/internal/manpage"
)

func main() { os.Exit(manpage.Main(os.Stdout, os.Stderr)) }
