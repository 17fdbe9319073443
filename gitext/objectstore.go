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
