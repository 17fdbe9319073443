package hooks

import "github.com/git-bernstein/git-bernstein/gitext"

// Folder is the hooks folder git runs hooks from, as gitext finds it (Repo.HooksFolder).
type Folder = gitext.HooksFolder
