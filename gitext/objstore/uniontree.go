package objstore

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// This file keeps a ref whose commits hold a write-once tree: files are only ever added, and two trees merge as
// their union. It is the notes machinery of notes.go applied to whole files (refs/bernstein/archives): the same
// compare-and-swap of the ref under git's <ref>.lock, the same retries. A path that two trees give different
// blobs is a conflict, refused with ErrTreeConflict: nothing is ever overwritten.

// TreeFile is one file to add to a union tree: its slash-separated path and the blob holding it.
type TreeFile struct {
	Path string
	Blob gitext.Hash
}

// ErrTreeConflict says one path holds two different blobs (or a file and a folder) in trees being merged.
var ErrTreeConflict = errors.New("two different files under one name")

// TreeLimits bound what is read of a tree that came from somewhere else (a remote): the number of entries in
// all, and how deep folders go.
type TreeLimits struct {
	MaxEntries int
	MaxDepth   int
}

// WriteBlob stores data as a blob and returns its id.
func (r *Store) WriteBlob(data []byte) (gitext.Hash, error) {
	return r.writeObject(plumbing.BlobObject, data)
}

// BlobSize is the size of blob h, read from its header without inflating it, so a caller can refuse a blob that
// is too large before reading it.
func (r *Store) BlobSize(h gitext.Hash) (int64, error) {
	obj, err := r.st.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return 0, fmt.Errorf("blob %s: %w", h, err)
	}
	return obj.Size(), nil
}

// ReadBlobMax reads blob h when it is at most max bytes.
func (r *Store) ReadBlobMax(h gitext.Hash, max int64) ([]byte, error) {
	n, err := r.BlobSize(h)
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, fmt.Errorf("blob %s is %d bytes, more than the %d allowed", h, n, max)
	}
	return r.readBlob(h)
}

// RefCommit is the commit ref names and that commit's tree; zeros when the ref does not exist.
func (r *Store) RefCommit(ref gitext.RefName) (commit, tree gitext.Hash, err error) {
	return r.notesTree(ref)
}

// TreeEntryAt finds the file at slash-separated path in tree: its blob and mode; ok is false when there is none.
func (r *Store) TreeEntryAt(tree gitext.Hash, p string) (blob gitext.Hash, mode gitext.FileMode, ok bool, err error) {
	if tree.IsZero() {
		return plumbing.ZeroHash, 0, false, nil
	}
	parts := strings.Split(p, "/")
	for i, name := range parts {
		t, err := object.GetTree(r.st, tree)
		if err != nil {
			return plumbing.ZeroHash, 0, false, fmt.Errorf("tree %s: %w", tree, err)
		}
		var found *object.TreeEntry
		for j := range t.Entries {
			if t.Entries[j].Name == name {
				found = &t.Entries[j]
				break
			}
		}
		if found == nil {
			return plumbing.ZeroHash, 0, false, nil
		}
		if i == len(parts)-1 {
			return found.Hash, gitext.FileMode(found.Mode), true, nil
		}
		if found.Mode != filemode.Dir {
			return plumbing.ZeroHash, 0, false, nil
		}
		tree = found.Hash
	}
	return plumbing.ZeroHash, 0, false, nil
}

// TreeFiles lists the files of tree by path (zero: none) with their modes. Only for trees already checked.
func (r *Store) TreeFiles(tree gitext.Hash) (map[string]gitext.FileMode, map[string]gitext.Hash, error) {
	modes, blobs := map[string]gitext.FileMode{}, map[string]plumbing.Hash{}
	if tree.IsZero() {
		return modes, blobs, nil
	}
	err := r.walkTree(tree, "", 0, TreeLimits{}, func(p string, e object.TreeEntry) error {
		if e.Mode != filemode.Dir {
			modes[p], blobs[p] = gitext.FileMode(e.Mode), e.Hash
		}
		return nil
	})
	return modes, blobs, err
}

// SkipTree, returned by CheckTree's check for a folder, says not to read what it holds (a subtree already
// known: one the local ref has under the same hash).
var SkipTree = errors.New("skip this tree") //nolint:staticcheck // ST1012: a signal named like fs.SkipDir, not a failure

// CheckTree reads every entry of tree, within lim, and calls check with each entry's path (folders too, so a
// caller can refuse a name before anything under it is read). It is how a tree from a remote is judged before
// any of it is merged.
func (r *Store) CheckTree(tree gitext.Hash, lim TreeLimits, check func(path string, e gitext.TreeEntry) error) error {
	return r.walkTree(tree, "", 0, lim, func(p string, e object.TreeEntry) error { return check(p, treeEntryOf(e)) })
}

func (r *Store) walkTree(tree gitext.Hash, prefix string, depth int, lim TreeLimits, visit func(string, object.TreeEntry) error) error {
	count := 0
	var walk func(tree plumbing.Hash, prefix string, depth int) error
	walk = func(tree plumbing.Hash, prefix string, depth int) error {
		if lim.MaxDepth > 0 && depth >= lim.MaxDepth {
			return fmt.Errorf("tree %s: folders nested deeper than %d", tree, lim.MaxDepth)
		}
		t, err := object.GetTree(r.st, tree)
		if err != nil {
			return fmt.Errorf("tree %s: %w", tree, err)
		}
		for _, e := range t.Entries {
			count++
			if lim.MaxEntries > 0 && count > lim.MaxEntries {
				return fmt.Errorf("tree %s: more than %d entries", tree, lim.MaxEntries)
			}
			p := prefix + e.Name
			err := visit(p, e)
			if errors.Is(err, SkipTree) && e.Mode == filemode.Dir {
				continue
			}
			if err != nil {
				return err
			}
			if e.Mode == filemode.Dir {
				if err := walk(e.Hash, p+"/", depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(tree, prefix, depth)
}

// AddFiles adds files to the union tree on ref in one commit (author and committer sig) and moves the ref by
// compare-and-swap, redoing the work when another writer moved it meanwhile. A file already there with the same
// blob is left as it is; with another blob it is ErrTreeConflict and nothing is written. added is how many files
// were new.
func (r *Store) AddFiles(ref gitext.RefName, sig gitext.Signature, message string, files []TreeFile) (added int, err error) {
	if len(files) == 0 {
		return 0, nil
	}
	fresh, err := r.buildTree(files)
	if err != nil {
		return 0, err
	}
	_, err = r.updateRef(ref, func(oldCommit, oldTree plumbing.Hash) (plumbing.Hash, error) {
		added = 0
		for _, f := range files {
			if _, _, ok, err := r.TreeEntryAt(oldTree, f.Path); err != nil {
				return plumbing.ZeroHash, err
			} else if !ok {
				added++
			}
		}
		tree, err := r.unionTrees(oldTree, fresh, "")
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if tree == oldTree {
			added = 0
			return oldCommit, nil
		}
		var parents []plumbing.Hash
		if !oldCommit.IsZero() {
			parents = []plumbing.Hash{oldCommit}
		}
		return r.writeCommit(tree, parents, sig, message)
	})
	if err != nil {
		return 0, err
	}
	return added, nil
}

// TreeMerge makes the tree of a merge from the tree of ref's commit (zero when the ref does not exist) and the
// tree of the other commit.
type TreeMerge func(local, other gitext.Hash) (gitext.Hash, error)

// UnionTrees is the TreeMerge of write-once trees: every file of both; a path with two different blobs is
// ErrTreeConflict.
func (r *Store) UnionTrees(local, other gitext.Hash) (gitext.Hash, error) {
	return r.unionTrees(local, other, "")
}

// MergeRef merges commit other (already checked by the caller: it came from a remote) into ref: nothing when
// other is ref's commit or one of its ancestors; a fast-forward to other when ref is absent, or is an ancestor of
// other and the merged tree is other's; else a merge commit with parents ref's commit and other, whose tree is
// merge's. The ref moves by compare-and-swap, with retries, as AddFiles. moved says whether it moved.
func (r *Store) MergeRef(ref gitext.RefName, other gitext.Hash, sig gitext.Signature, message string, merge TreeMerge) (moved bool, err error) {
	oc, err := object.GetCommit(r.st, other)
	if err != nil {
		return false, fmt.Errorf("commit %s to merge into %s: %w", other, ref, err)
	}
	return r.updateRef(ref, func(oldCommit, oldTree plumbing.Hash) (plumbing.Hash, error) {
		if oldCommit == other {
			return oldCommit, nil
		}
		if !oldCommit.IsZero() {
			if in, err := r.hasAncestor(oldCommit, other); err != nil || in {
				return oldCommit, err
			}
		}
		tree, err := merge(oldTree, oc.TreeHash)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if oldCommit.IsZero() {
			if tree == oc.TreeHash {
				return other, nil
			}
			return r.writeCommit(tree, []plumbing.Hash{other}, sig, message)
		}
		if tree == oc.TreeHash {
			if ff, err := r.hasAncestor(other, oldCommit); err != nil || ff {
				return other, err
			}
		}
		return r.writeCommit(tree, []plumbing.Hash{oldCommit, other}, sig, message)
	})
}

// maxAncestorWalk bounds the commits hasAncestor reads: a remote's history is not trusted to be small.
const maxAncestorWalk = 1 << 20

// hasAncestor says whether want is start or one of its ancestors. Parents that are missing (a shallow fetch)
// end that line of the walk.
func (r *Store) hasAncestor(start, want gitext.Hash) (bool, error) {
	seen := map[plumbing.Hash]bool{start: true}
	queue := []plumbing.Hash{start}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if h == want {
			return true, nil
		}
		if len(seen) > maxAncestorWalk {
			return false, fmt.Errorf("history of %s is longer than %d commits", start, maxAncestorWalk)
		}
		c, err := object.GetCommit(r.st, h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			continue
		}
		if err != nil {
			return false, err
		}
		for _, p := range c.ParentHashes {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, nil
}

func (r *Store) writeCommit(tree gitext.Hash, parents []gitext.Hash, sig gitext.Signature, message string) (gitext.Hash, error) {
	var ps []plumbing.Hash
	for _, p := range parents {
		if !p.IsZero() {
			ps = append(ps, p)
		}
	}
	commit := &object.Commit{Author: objectSignature(sig), Committer: objectSignature(sig), Message: message, TreeHash: tree, ParentHashes: ps}
	return r.writeEncoded(commit, "commit")
}

func (r *Store) writeTree(entries []object.TreeEntry) (gitext.Hash, error) {
	sort.Sort(object.TreeEntrySorter(entries))
	return r.writeEncoded(&object.Tree{Entries: entries}, "tree")
}

// writeEncoded encodes o (a commit or tree, what names it in errors) and writes it to the object store.
func (r *Store) writeEncoded(o interface {
	Encode(plumbing.EncodedObject) error
}, what string) (gitext.Hash, error) {
	obj := r.st.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode %s: %w", what, err)
	}
	h, err := r.st.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write %s: %w", what, err)
	}
	return h, nil
}

// buildTree writes the tree holding exactly files (regular, 0644). Two files under one path are a conflict
// unless they are the same blob.
func (r *Store) buildTree(files []TreeFile) (gitext.Hash, error) {
	type node struct {
		blob plumbing.Hash
		dirs map[string]*node
	}
	root := &node{dirs: map[string]*node{}}
	for _, f := range files {
		if f.Path == "" || path.Clean(f.Path) != f.Path || strings.HasPrefix(f.Path, "/") || strings.HasPrefix(f.Path, "../") || f.Path == ".." {
			return plumbing.ZeroHash, fmt.Errorf("tree path %q is not a clean relative path", f.Path)
		}
		parts := strings.Split(f.Path, "/")
		n := root
		for i, name := range parts {
			child, ok := n.dirs[name]
			last := i == len(parts)-1
			switch {
			case !ok:
				child = &node{}
				if !last {
					child.dirs = map[string]*node{}
				}
				n.dirs[name] = child
			case last != (child.dirs == nil):
				return plumbing.ZeroHash, fmt.Errorf("%w: %s is both a file and a folder", ErrTreeConflict, f.Path)
			}
			if last {
				if !child.blob.IsZero() && child.blob != f.Blob {
					return plumbing.ZeroHash, fmt.Errorf("%w: %s", ErrTreeConflict, f.Path)
				}
				child.blob = f.Blob
			}
			n = child
		}
	}
	var write func(n *node) (plumbing.Hash, error)
	write = func(n *node) (plumbing.Hash, error) {
		entries := make([]object.TreeEntry, 0, len(n.dirs))
		for name, c := range n.dirs {
			if c.dirs == nil {
				entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: c.blob})
				continue
			}
			h, err := write(c)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
		return r.writeTree(entries)
	}
	return write(root)
}

// unionTrees merges two trees entry by entry; identical subtrees are taken whole without being read.
func (r *Store) unionTrees(a, b gitext.Hash, prefix string) (gitext.Hash, error) {
	switch {
	case a == b || b.IsZero():
		return a, nil
	case a.IsZero():
		return b, nil
	}
	ta, err := object.GetTree(r.st, a)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("tree %s: %w", a, err)
	}
	tb, err := object.GetTree(r.st, b)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("tree %s: %w", b, err)
	}
	byName := make(map[string]object.TreeEntry, len(ta.Entries))
	for _, e := range ta.Entries {
		byName[e.Name] = e
	}
	out := append([]object.TreeEntry(nil), ta.Entries...)
	changed := false
	for _, eb := range tb.Entries {
		ea, ok := byName[eb.Name]
		if !ok {
			out = append(out, eb)
			changed = true
			continue
		}
		if ea.Mode == eb.Mode && ea.Hash == eb.Hash {
			continue
		}
		if ea.Mode != filemode.Dir || eb.Mode != filemode.Dir {
			return plumbing.ZeroHash, fmt.Errorf("%w: %s%s (%s %s here, %s %s there); nothing was overwritten",
				ErrTreeConflict, prefix, eb.Name, ea.Mode, ea.Hash.String()[:12], eb.Mode, eb.Hash.String()[:12])
		}
		h, err := r.unionTrees(ea.Hash, eb.Hash, prefix+eb.Name+"/")
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if h != ea.Hash {
			for i := range out {
				if out[i].Name == eb.Name {
					out[i].Hash = h
				}
			}
			changed = true
		}
	}
	if !changed {
		return a, nil
	}
	return r.writeTree(out)
}
