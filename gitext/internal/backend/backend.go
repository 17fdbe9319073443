// Package backend lets gitext hand what lies under a gitext.Repo to gitext's own sub-packages (objstore, patch,
// revparse), and to no one else: Go lets only packages under gitext/ import this package, so only they can make
// the Key that gitext.Repo.Backend asks for. Every other package reads git through gitext.Repo's methods and
// gitext/objstore's.
//
// It links no go-git storage: gitext reads refs and objects itself, and the front (package front) links gitext
// but not gitext/objstore, whose go-git storage, object and config packages cost it start-up on every run.
package backend

import (
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Key unlocks gitext.Repo.Backend. Its field is unexported, so no literal of an identical type can be written
// outside this package.
type Key struct{ _ struct{} }

// Repo is what a sub-package reads git through: the folders, gitext's readers, and what gitext/objstore attaches.
type Repo struct {
	GitDir    string // this worktree's git folder
	CommonDir string // the folder all worktrees share: objects, refs, config
	WorkTree  string // the top of the working tree; "" for a bare repository

	// Packed reads an object from the repository's mapped packs (deltas resolved); ok is false when they do
	// not hold it or the entry does not read, and nothing else is asked.
	Packed func(plumbing.Hash) (plumbing.ObjectType, []byte, bool)
	// Promised fetches an object a partial clone lacks from its promisor remote; nil unless the repository is
	// a partial clone. Its errors wrap plumbing.ErrObjectNotFound.
	Promised func(plumbing.Hash) (plumbing.ObjectType, []byte, error)

	// Objects and Refs read what gitext's own readers leave, through go-git's storage: an object they do not
	// read (in an alternate's folder, past their size bound, in an entry they refuse) and the history refs when
	// gitext's listing declines (a link or odd file under refs/). gitext/objstore sets both when the repository
	// is discovered with objstore.WithGoGit, before anything is read; without them such a read fails, gitext.Repo's
	// Unreadable says so, and the front hands the run to git-bernstein-full.
	Objects func(plumbing.Hash) (plumbing.EncodedObject, error)
	Refs    func() ([]*plumbing.Reference, error)

	storeOnce sync.Once
	store     any
}

// Store returns what open returns on the first call for this repository, the same value every time:
// gitext/objstore keeps its go-git storage here, so that one repository opens its packs once.
func (r *Repo) Store(open func() any) any {
	r.storeOnce.Do(func() { r.store = open() })
	return r.store
}
