package gitext

import (
	"errors"
	"fmt"
	"os"
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

// fallback reads an object the packs and loose objects did not give: through go-git's storage when
// gitext/objstore attached it (alternates, entries odb refuses), then, in a partial clone, from the promisor
// remote. Without either the object is not found (plumbing.ErrObjectNotFound, as go-git's storage says it), and
// if go-git's storage might have read it, Unreadable says so.
func (r *Repo) fallback(h Hash) (plumbing.EncodedObject, error) {
	if r.be.Objects != nil {
		obj, err := r.be.Objects(h)
		if r.promisor == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
			return obj, err
		}
	} else if why := r.elsewhere(h); why != "" {
		r.leftUnread(fmt.Errorf("object %s: %s, which gitext reads only through go-git's storage "+
			"(gitext/objstore's WithGoGit)", h, why))
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

// elsewhere says why go-git's storage might read h where odb did not: the repository borrows objects from
// alternates, or h is in a pack's index or has a loose file, whose entry odb refused (past its size bound, or
// odd); "" when go-git would not find it either.
func (r *Repo) elsewhere(h Hash) string {
	objects := filepath.Join(r.CommonDir, "objects")
	if _, err := os.Stat(filepath.Join(objects, "info", "alternates")); err == nil {
		return "the repository has alternates"
	}
	if r.pack != nil && r.pack.Contains(h) { // packs() has returned: fallback is only called by its reads
		return "its pack entry did not read"
	}
	hexID := h.String()
	if _, err := os.Lstat(filepath.Join(objects, hexID[:2], hexID[2:])); err == nil {
		return "its loose file did not read"
	}
	return ""
}

// leftUnread keeps why (the first one) for Unreadable.
func (r *Repo) leftUnread(why error) {
	r.unreadMu.Lock()
	defer r.unreadMu.Unlock()
	if r.unread == nil {
		r.unread = why
	}
}

// Unreadable says what this repository's readers left unread that a run without them would have read: what
// gitext reads only through go-git's storage, had the repository been discovered without gitext/objstore's
// WithGoGit (objects in an alternate's folder, a pack entry or loose object its own readers refuse, refs behind
// a symbolic link), and a configuration key the configuration cache was asked for and does not hold
// (WithConfigCache, Config.Unanswered). Such a read fails or answers "not set", and some callers go on without
// it (a commit without a patch id is a warning), so a program that can hand the run to one that reads it all
// (the front, package front) asks this before it writes anything. nil when nothing was left.
func (r *Repo) Unreadable() error {
	r.unreadMu.Lock()
	defer r.unreadMu.Unlock()
	if r.unread == nil && r.cached != nil {
		if k := r.cached.Unanswered(); k != "" {
			return fmt.Errorf("configuration key %s: not in the configuration cache, which holds only the keys "+
				"its caller reads (WithConfigCache)", k)
		}
	}
	return r.unread
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
