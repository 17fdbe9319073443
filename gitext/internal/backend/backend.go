// Package backend lets gitext hand the go-git storage under a gitext.Repo to gitext's own sub-packages (patch,
// revparse), and to no one else: Go lets only packages under gitext/ import this package, so only they can make
// the Key that gitext.Repo.Backend asks for. Every other package reads git through gitext.Repo's methods.
package backend

import (
	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/storage"
)

// Key unlocks gitext.Repo.Backend. Its field is unexported, so no literal of an identical type can be written
// outside this package.
type Key struct{ _ struct{} }

// Repo is what a sub-package reads git through: go-git's storage (objects, references, the repository's own
// config file; a partial clone's missing objects fetched on demand) and the folders as file systems.
type Repo struct {
	Storer   storage.Storer
	WorkTree billy.Filesystem // the top of the working tree; nil for a bare repository
	GitDir   billy.Filesystem // the git folder (info/attributes)
}
