// Package hooks installs, removes and reports git-bernstein's git hooks without hurting anyone else's: it finds
// the hooks folder the way git does, never overwrites a hook it did not write (it moves it aside and calls it
// first), installs idempotently and uninstalls exactly, putting the original back byte for byte.
package hooks

import "github.com/git-bernstein/git-bernstein/gitext"

// Folder is the hooks folder git runs hooks from, as gitext finds it (Repo.HooksFolder).
type Folder = gitext.HooksFolder
