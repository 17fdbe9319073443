package gitext

import (
	"errors"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
)

// packs returns the repository's object reader (package odb: the packs and the loose objects), opened once: its
// pack files stay mapped for the life of the process, which is one command. What it does not read goes to
// fallback.
func (r *Repo) packs() (*odb.Packs, error) {
	r.packOnce.Do(func() {
		r.pack, r.packErr = odb.OpenPacks(filepath.Join(r.CommonDir, "objects", "pack"), r.fallback)
	})
	return r.pack, r.packErr
}

// fallback reads an object the packs and loose objects did not give: through go-git's storage when gitext/store
// attached it (alternates, entries odb refuses), then, in a partial clone, from the promisor remote. Without
// either the object is not found (plumbing.ErrObjectNotFound, as go-git's storage says it).
func (r *Repo) fallback(h Hash) (plumbing.EncodedObject, error) {
	if r.be.Objects != nil {
		obj, err := r.be.Objects(h)
		if r.promisor == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
			return obj, err
		}
	}
	if r.promisor == nil {
		return nil, plumbing.ErrObjectNotFound
	}
	typ, data, err := r.promisor.fetch(h)
	if err != nil {
		return nil, err
	}
	mo := &plumbing.MemoryObject{}
	mo.SetType(typ)
	mo.Write(data)
	return mo, nil
}

// packed reads h from the mapped packs alone (backend.Repo.Packed).
func (r *Repo) packed(h Hash) (ObjectType, []byte, bool) {
	pr, err := r.packs()
	if err != nil {
		return 0, nil, false
	}
	return pr.Packed(h)
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
// resolved), else from its loose file, else as fallback reads it.
func (r *Repo) ReadObject(h Hash) (ObjectType, []byte, error) {
	pr, err := r.packs()
	if err != nil {
		return 0, nil, err
	}
	return pr.Object(h)
}
