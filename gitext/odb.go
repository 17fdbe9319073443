package gitext

import (
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
)

// packs returns the repository's fast object reader (package odb), opened once: its pack files stay mapped for
// the life of the process, which is one command. What the packs do not give it reads through go-git's object
// storage, which fetches a partial clone's missing objects from its promisor remote (objectStore).
func (r *Repo) packs() (*odb.Packs, error) {
	r.packOnce.Do(func() {
		r.pack, r.packErr = odb.OpenPacks(filepath.Join(r.CommonDir, "objects", "pack"), func(h plumbing.Hash) (plumbing.EncodedObject, error) {
			return r.st.EncodedObject(plumbing.AnyObject, h)
		})
	})
	return r.pack, r.packErr
}

// graphFile returns the repository's commit-graph, opened once and kept mapped for the process; nil if none.
func (r *Repo) graphFile() *odb.CommitGraph {
	r.cgOnce.Do(func() { r.cg = r.openGraph() })
	return r.cg
}

// openGraph opens the repository's commit-graph; nil when there is none or any layer does not check out (then
// walks read commit objects instead, which is always right).
func (r *Repo) openGraph() *odb.CommitGraph {
	return odb.OpenCommitGraph(filepath.Join(r.CommonDir, "objects", "info"))
}

// ReadObject returns the type and whole content of any object, from the mapped packs where it can (deltas
// resolved), else through go-git. Other packages use it where go-git's object decoding is the bottleneck.
func (r *Repo) ReadObject(h Hash) (ObjectType, []byte, error) {
	pr, err := r.packs()
	if err != nil {
		return 0, nil, err
	}
	return pr.Object(h)
}
