package gitext

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// objectStore is go-git's object and ref store with the two things it lacks for the repositories git makes:
// the repository format checked by us (readFormat) rather than by go-git, and the missing objects of a partial
// clone fetched from its promisor remote.
type objectStore struct {
	*filesystem.Storage
	promisor *promisor // nil unless the repository is a partial clone
	// packed reads an object from the mapped packs (package odb) without asking go-git; nil until the Repo
	// is made. go-git's own first read of a pack loads its whole index into maps (half a second and 200 MB on
	// a pack of 1.5 million objects), which a command that reads a few objects never needs.
	packed func(plumbing.Hash) (plumbing.ObjectType, []byte, bool)
}

// Config is the repository's config as go-git sees it, without the extensions section: readFormat has already
// checked every extension the way git does, and go-git would refuse worktreeConfig (see readFormat).
func (s *objectStore) Config() (*config.Config, error) {
	cfg, err := s.Storage.Config()
	if err != nil {
		return nil, err
	}
	if cfg.Raw != nil && cfg.Raw.HasSection("extensions") {
		cfg.Raw.RemoveSection("extensions")
	}
	return cfg, nil
}

// SetConfig is refused: Config hides the extensions, and writing that config back would drop them.
func (s *objectStore) SetConfig(*config.Config) error {
	return errors.New("gitext does not write the repository's config")
}

// EncodedObject reads an object; one that a partial clone lacks is fetched from its promisor remote.
func (s *objectStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if s.packed != nil {
		if typ, data, ok := s.packed(h); ok {
			if t != plumbing.AnyObject && typ != t {
				return nil, plumbing.ErrObjectNotFound // as go-git's storage answers a type mismatch
			}
			mo := &plumbing.MemoryObject{}
			mo.SetType(typ)
			mo.Write(data)
			return mo, nil
		}
	}
	obj, err := s.Storage.EncodedObject(t, h)
	if s.promisor == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
		return obj, err
	}
	typ, data, err := s.promisor.fetch(h)
	if err != nil {
		return nil, err
	}
	if t != plumbing.AnyObject && typ != t {
		return nil, fmt.Errorf("object %s is a %s, not a %s: %w", h, typ, t, plumbing.ErrObjectNotFound)
	}
	mo := &plumbing.MemoryObject{}
	mo.SetType(typ)
	mo.Write(data)
	return mo, nil
}
