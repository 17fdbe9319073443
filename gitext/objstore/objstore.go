// Package objstore reads and writes what gitext's history reading does not need: trees and blobs, git notes,
// write-once union trees, and the refs that hold them (moved by compare-and-swap), through go-git's storage of
// a gitext.Repo. It is apart from gitext so that the front (package front), which only reads history, links
// none of go-git's storage, object and config packages, whose start-up every run of `git bernstein commits`
// would pay (OpenPGP and a diff library come with the object package).
//
// Of gives a repository's Store, made once and kept with the repository. WithGoGit, given to gitext.Discover,
// also lets gitext read through that storage what its own readers leave (objects in an alternate's folder or past
// their bounds, refs behind a symbolic link): git-bernstein-full opens with it every repository whose history
// it reads.
package objstore

import (
	"errors"
	"fmt"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/internal/backend"
)

// Store reads and writes one repository's objects and refs through go-git's storage.
type Store struct {
	repo *gitext.Repo
	st   *objectStore
}

// Of returns repo's Store: made on the first call (go-git's storage of the repository, its packs opened as
// they are read) and the same for every later one.
func Of(repo *gitext.Repo) *Store {
	be := repo.Backend(backend.Key{})
	return be.Store(func() any { return open(repo, be) }).(*Store)
}

// WithGoGit is a gitext.Discover option: gitext then reads through the repository's Store what its own readers
// leave, as it did when it read everything through go-git. git-bernstein-full gives it for every repository
// whose history it reads; the front does not, and hands such a repository over to it (gitext.Repo.Unreadable).
func WithGoGit() gitext.Option {
	return func(repo *gitext.Repo) {
		s := Of(repo)
		be := repo.Backend(backend.Key{})
		be.Objects = func(h plumbing.Hash) (plumbing.EncodedObject, error) {
			return s.st.Storage.EncodedObject(plumbing.AnyObject, h)
		}
		be.Refs = func() ([]*plumbing.Reference, error) {
			iter, err := s.st.IterReferences()
			if err != nil {
				return nil, err
			}
			var refs []*plumbing.Reference
			err = iter.ForEach(func(ref *plumbing.Reference) error {
				refs = append(refs, ref)
				return nil
			})
			return refs, err
		}
	}
}

func open(repo *gitext.Repo, be *backend.Repo) *Store {
	fs := dotgit.NewRepositoryFilesystem(osfs.New(be.GitDir), osfs.New(be.CommonDir))
	// Keep pack files open: without it go-git reopens the pack (and stats the path) for every object read.
	st := &objectStore{Storage: filesystem.NewStorageWithOptions(fs, cache.NewObjectLRUDefault(),
		filesystem.Options{KeepDescriptors: true}), packed: be.Packed, promised: be.Promised}
	return &Store{repo: repo, st: st}
}

// Storer is go-git's storage of the repository, for gitext's own sub-packages (revparse makes a go-git
// Repository on it); the key keeps it from everyone else.
func (s *Store) Storer(backend.Key) storage.Storer { return s.st }

// objectStore is go-git's object and ref store with the two things it lacks for the repositories git makes:
// the repository format checked by gitext rather than by go-git, and the missing objects of a partial clone
// fetched from its promisor remote.
type objectStore struct {
	*filesystem.Storage
	// packed reads an object from gitext's mapped packs without asking go-git: go-git's own first read of a
	// pack loads its whole index into maps (half a second and 200 MB on a pack of 1.5 million objects), which a
	// command that reads a few objects never needs.
	packed   func(plumbing.Hash) (plumbing.ObjectType, []byte, bool)
	promised func(plumbing.Hash) (plumbing.ObjectType, []byte, error) // nil unless a partial clone
}

// Config is the repository's config as go-git sees it, without the extensions section: gitext has already
// checked every extension the way git does, and go-git would refuse worktreeConfig.
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
	if typ, data, ok := s.packed(h); ok {
		if t != plumbing.AnyObject && typ != t {
			return nil, plumbing.ErrObjectNotFound // as go-git's storage answers a type mismatch
		}
		return memoryObject(typ, data), nil
	}
	obj, err := s.Storage.EncodedObject(t, h)
	if s.promised == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
		return obj, err
	}
	typ, data, err := s.promised(h)
	if err != nil {
		return nil, err
	}
	if t != plumbing.AnyObject && typ != t {
		return nil, fmt.Errorf("object %s is a %s, not a %s: %w", h, typ, t, plumbing.ErrObjectNotFound)
	}
	return memoryObject(typ, data), nil
}

func memoryObject(typ plumbing.ObjectType, data []byte) *plumbing.MemoryObject {
	mo := &plumbing.MemoryObject{}
	mo.SetType(typ)
	mo.Write(data)
	return mo
}

// TreeEntries reads the entries of tree (one level, in the tree's order).
func (s *Store) TreeEntries(tree gitext.Hash) ([]gitext.TreeEntry, error) {
	t, err := object.GetTree(s.st, tree)
	if err != nil {
		return nil, err
	}
	out := make([]gitext.TreeEntry, len(t.Entries))
	for i, e := range t.Entries {
		out[i] = treeEntryOf(e)
	}
	return out, nil
}

// TreeChange is one path whose file differs between two trees. From is what it was and To what it is; a side
// with an empty Path has no file there (an addition or a deletion).
type TreeChange struct{ From, To ChangeEntry }

// ChangeEntry is one side of a TreeChange: the full slash-separated path, its mode and object.
type ChangeEntry struct {
	Path string
	Mode gitext.FileMode
	Hash gitext.Hash
}

// DiffTree lists the files that differ between trees from and to (a zero from is the empty tree, as for a root
// commit), without rename detection, in path order.
func (s *Store) DiffTree(from, to gitext.Hash) ([]TreeChange, error) {
	var a, b *object.Tree
	var err error
	if !from.IsZero() {
		if a, err = object.GetTree(s.st, from); err != nil {
			return nil, err
		}
	}
	if b, err = object.GetTree(s.st, to); err != nil {
		return nil, err
	}
	changes, err := object.DiffTree(a, b)
	if err != nil {
		return nil, err
	}
	side := func(e object.ChangeEntry) ChangeEntry {
		return ChangeEntry{Path: e.Name, Mode: gitext.FileMode(e.TreeEntry.Mode), Hash: e.TreeEntry.Hash}
	}
	out := make([]TreeChange, len(changes))
	for i, ch := range changes {
		out[i] = TreeChange{From: side(ch.From), To: side(ch.To)}
	}
	return out, nil
}

func treeEntryOf(e object.TreeEntry) gitext.TreeEntry {
	return gitext.TreeEntry{Name: e.Name, Mode: gitext.FileMode(e.Mode), Hash: e.Hash}
}

// objectSignature is sig as go-git writes it in a commit.
func objectSignature(sig gitext.Signature) object.Signature {
	return object.Signature{Name: sig.Name, Email: sig.Email, When: sig.When}
}
