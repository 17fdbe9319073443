package gitext

import (
	"sort"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-bernstein/git-bernstein/gitext/internal/backend"
)

// Commit reads commit h through the object store (and, in a partial clone, its promisor remote).
func (r *Repo) Commit(h Hash) (*Commit, error) {
	c, err := object.GetCommit(r.st, h)
	if err != nil {
		return nil, err
	}
	return commitOf(c), nil
}

// TreeEntries reads the entries of tree (one level, in the tree's order).
func (r *Repo) TreeEntries(tree Hash) ([]TreeEntry, error) {
	t, err := object.GetTree(r.st, tree)
	if err != nil {
		return nil, err
	}
	out := make([]TreeEntry, len(t.Entries))
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
	Mode FileMode
	Hash Hash
}

// DiffTree lists the files that differ between trees from and to (a zero from is the empty tree, as for a root
// commit), without rename detection, in path order.
func (r *Repo) DiffTree(from, to Hash) ([]TreeChange, error) {
	var a, b *object.Tree
	var err error
	if !from.IsZero() {
		if a, err = object.GetTree(r.st, from); err != nil {
			return nil, err
		}
	}
	if b, err = object.GetTree(r.st, to); err != nil {
		return nil, err
	}
	changes, err := object.DiffTree(a, b)
	if err != nil {
		return nil, err
	}
	side := func(e object.ChangeEntry) ChangeEntry {
		return ChangeEntry{Path: e.Name, Mode: FileMode(e.TreeEntry.Mode), Hash: e.TreeEntry.Hash}
	}
	out := make([]TreeChange, len(changes))
	for i, ch := range changes {
		out[i] = TreeChange{From: side(ch.From), To: side(ch.To)}
	}
	return out, nil
}

// Remotes lists the remotes the repository's own config file names ([remote "<name>"]), sorted.
func (r *Repo) Remotes() ([]string, error) {
	cfg, err := r.st.Config()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(cfg.Remotes))
	for name := range cfg.Remotes {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// Backend hands gitext's own sub-packages (patch, revparse) the go-git storage underneath and the folders. Its
// key is of a type only packages under gitext/ can name (gitext/internal/backend), so no other package can call
// it.
func (r *Repo) Backend(backend.Key) backend.Repo {
	return backend.Repo{Storer: r.st, WorkTree: r.wt, GitDir: r.st.Filesystem()}
}
