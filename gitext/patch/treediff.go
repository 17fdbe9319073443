package patch

import (
	"bytes"
	"fmt"
	"io"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// diffTrees lists the file pairs between two trees (nil is the empty tree) as git prints them: it descends only
// into subtrees whose ids differ. go-git's DiffTree decodes every subtree of each directory it enters, which
// made a patch series 80 times slower than git format-patch on a repository of fifty folders. Both trees are
// walked side by side in tree order, as tree-diff.c does, so no name is copied unless its entry changed.
// Renames are found afterwards (detectRenames).
func diffTrees(s objectSource, a, b *treeList) ([][2]side, error) {
	d := treeDiff{s: s}
	if err := d.walk("", a, b); err != nil {
		return nil, err
	}
	out := d.out
	for _, del := range d.dels {
		out = append(out, [2]side{del, {}})
	}
	for _, ad := range d.adds {
		out = append(out, [2]side{{}, ad})
	}
	// git's queue is in path order (tree order is path order once folders are read as "name/"); a deletion
	// comes before a creation at the same path.
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := queueKey(out[i]), queueKey(out[j])
		if pi != pj {
			return pi < pj
		}
		return out[i][0].exists() && !out[j][0].exists()
	})
	return out, nil
}

// treeDiff collects a tree diff's modifications, deletions and creations.
type treeDiff struct {
	s          objectSource
	dels, adds []side
	out        [][2]side
}

// walk compares two folders entry by entry. Entries are in git's tree order (base_name_compare: a folder's
// name sorts as if it ended in "/"), so one pass pairs the names the two sides share; they are read from the
// raw trees as the pass goes, so an unchanged entry costs no allocation.
func (d *treeDiff) walk(prefix string, a, b *treeList) error {
	var ra, rb []byte
	if a != nil {
		ra = a.data
	}
	if b != nil {
		rb = b.data
	}
	var ea, eb treeEntry
	hasA, hasB := len(ra) > 0, len(rb) > 0
	var err error
	if hasA {
		if ea, ra, err = a.entry(ra); err != nil {
			return err
		}
	}
	if hasB {
		if eb, rb, err = b.entry(rb); err != nil {
			return err
		}
	}
	for hasA || hasB {
		c := 0
		switch {
		case !hasA:
			c = 1
		case !hasB:
			c = -1
		default:
			c = compareEntries(&ea, &eb)
		}
		var x, y *treeEntry
		if c <= 0 {
			x = &ea
		}
		if c >= 0 {
			y = &eb
		}
		if err := d.change(prefix, x, y); err != nil {
			return err
		}
		if c <= 0 {
			if hasA = len(ra) > 0; hasA {
				if ea, ra, err = a.entry(ra); err != nil {
					return err
				}
			}
		}
		if c >= 0 {
			if hasB = len(rb) > 0; hasB {
				if eb, rb, err = b.entry(rb); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// compareEntries orders tree entries as git sorts them: by name, a folder's name read as "name/".
func compareEntries(a, b *treeEntry) int {
	n := min(len(a.name), len(b.name))
	if c := bytes.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	ca, cb := a.nameByte(n), b.nameByte(n)
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}

// nameByte is the name's byte at i, or past its end "/" for a folder and 0 otherwise.
func (e *treeEntry) nameByte(i int) byte {
	switch {
	case i < len(e.name):
		return e.name[i]
	case e.mode == filemode.Dir:
		return '/'
	}
	return 0
}

// all lists every file under t as a deletion or creation.
func (d *treeDiff) all(prefix string, t *treeList, into *[]side) error {
	for rest := t.data; len(rest) > 0; {
		var e treeEntry
		var err error
		if e, rest, err = t.entry(rest); err != nil {
			return err
		}
		if e.mode == filemode.Dir {
			sub, err := getTree(d.s, e.hash)
			if err != nil {
				return fmt.Errorf("read tree %s (%s%s): %w", e.hash, prefix, e.name, err)
			}
			if err := d.all(prefix+string(e.name)+"/", sub, into); err != nil {
				return err
			}
			continue
		}
		*into = append(*into, side{path: prefix + string(e.name), mode: canonMode(e.mode), hash: e.hash})
	}
	return nil
}

// change compares one name of a folder in both trees (ea or eb nil when absent on that side).
func (d *treeDiff) change(prefix string, ea, eb *treeEntry) error {
	if ea != nil && eb != nil && ea.hash == eb.hash && ea.mode == eb.mode {
		return nil
	}
	subtree := func(e *treeEntry) (*treeList, error) {
		if e == nil || e.mode != filemode.Dir {
			return nil, nil
		}
		t, err := getTree(d.s, e.hash)
		if err != nil {
			return nil, fmt.Errorf("read tree %s (%s%s): %w", e.hash, prefix, e.name, err)
		}
		return t, nil
	}
	ta, err := subtree(ea)
	if err != nil {
		return err
	}
	tb, err := subtree(eb)
	if err != nil {
		return err
	}
	switch {
	case ta != nil && tb != nil:
		return d.walk(prefix+string(ea.name)+"/", ta, tb)
	case ta != nil:
		if err := d.all(prefix+string(ea.name)+"/", ta, &d.dels); err != nil {
			return err
		}
	case ea != nil:
		if eb != nil && tb == nil {
			// The same path on both sides: a modification, not a deletion plus a creation.
			path := prefix + string(ea.name)
			d.out = append(d.out, [2]side{{path: path, mode: canonMode(ea.mode), hash: ea.hash},
				{path: path, mode: canonMode(eb.mode), hash: eb.hash}})
			return nil
		}
		d.dels = append(d.dels, side{path: prefix + string(ea.name), mode: canonMode(ea.mode), hash: ea.hash})
	}
	switch {
	case tb != nil:
		return d.all(prefix+string(eb.name)+"/", tb, &d.adds)
	case eb != nil:
		d.adds = append(d.adds, side{path: prefix + string(eb.name), mode: canonMode(eb.mode), hash: eb.hash})
	}
	return nil
}

// objects reads a repository's objects: raw any object's type and whole content (gitext.Repo.ReadObject), commit
// a decoded commit (gitext.Repo.Commit).
type objects struct {
	raw    func(plumbing.Hash) (plumbing.ObjectType, []byte, error)
	commit func(plumbing.Hash) (*gitext.Commit, error)
}

// repoObjects are repo's objects, read through its mapped packs.
func repoObjects(repo *gitext.Repo) objects {
	return objects{raw: repo.ReadObject, commit: repo.Commit}
}

// objectSource reads the objects a diff needs, keeping the last few blobs and trees when recent is set.
type objectSource struct {
	objects
	recent *recentBlobs
	cfg    *settings
	diffs  *Diffs // part diffs made already (WithDiffs); nil: none
}

// recentBlobs holds the last four blobs read whole: both sides of the pair being written.
type recentBlobs struct {
	blobs [4]recentBlob
	next  int
	trees map[plumbing.Hash]*treeList
}

type recentBlob struct {
	hash plumbing.Hash
	data []byte
}

// blob opens a blob's content. A file pair reads each side twice (the binary sniff, then the diff): the last
// few blobs read whole are kept, so that costs one inflate, not two.
func (o objectSource) blob(h plumbing.Hash) (io.ReadCloser, int64, error) {
	data, err := o.blobBytes(h)
	if err != nil {
		return nil, 0, err
	}
	return io.NopCloser(bytes.NewReader(data)), int64(len(data)), nil
}

// blobBytes is a blob's whole content through the raw reader, the recent blobs first. An object of another type
// is not found, as go-git's storage answers. The bytes are shared: never written to.
func (o objectSource) blobBytes(h plumbing.Hash) ([]byte, error) {
	if o.recent != nil {
		for _, e := range o.recent.blobs {
			if e.hash == h {
				return e.data, nil
			}
		}
	}
	typ, data, err := o.raw(h)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.BlobObject {
		return nil, plumbing.ErrObjectNotFound
	}
	if o.recent != nil && len(data) <= 1<<20 {
		o.recent.blobs[o.recent.next] = recentBlob{h, data}
		o.recent.next = (o.recent.next + 1) % len(o.recent.blobs)
	}
	return data, nil
}

func (o objectSource) treeBytes(h plumbing.Hash) ([]byte, error) {
	typ, data, err := o.raw(h)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.TreeObject {
		return nil, plumbing.ErrObjectNotFound
	}
	return data, nil
}

// treeList is a tree object's raw content, "<octal mode> <name>\x00<20-byte id>" repeated, read entry by
// entry where it is walked. go-git's Tree.Decode reads entries through bufio string calls and was a third of
// the time of a patch series; parsing every entry into a list up front was still a fifth of what was left.
type treeList struct {
	hash plumbing.Hash
	data []byte
}

// treeEntry is one entry of a tree; name points into the tree's raw content.
type treeEntry struct {
	name []byte
	mode filemode.FileMode
	hash plumbing.Hash
}

// entry reads the entry at the start of rest (a tail of t.data) and returns what follows it.
func (t *treeList) entry(rest []byte) (treeEntry, []byte, error) {
	var e treeEntry
	sp := bytes.IndexByte(rest, ' ')
	nul := bytes.IndexByte(rest, 0)
	if sp <= 0 || nul < sp || nul+21 > len(rest) {
		return e, nil, fmt.Errorf("tree %s is corrupt; run `git fsck`", t.hash)
	}
	var mode uint64
	for _, c := range rest[:sp] {
		if c < '0' || c > '7' || mode > 0xffffffff>>3 {
			return e, nil, fmt.Errorf("tree %s has a bad mode %q; run `git fsck`", t.hash, rest[:sp])
		}
		mode = mode<<3 | uint64(c-'0')
	}
	e.name, e.mode = rest[sp+1:nul:nul], filemode.FileMode(mode)
	copy(e.hash[:], rest[nul+1:nul+21])
	return e, rest[nul+21:], nil
}

// getTree reads a tree object.
func getTree(s objectSource, h plumbing.Hash) (*treeList, error) {
	if s.recent != nil {
		if t, ok := s.recent.trees[h]; ok {
			return t, nil
		}
	}
	data, err := s.treeBytes(h)
	if err != nil {
		return nil, err
	}
	t := &treeList{hash: h, data: data}
	if s.recent != nil {
		// A series diffs each commit's trees against the next one's parent: the same trees, read again.
		if len(s.recent.trees) >= 512 {
			clear(s.recent.trees)
		}
		s.recent.trees[h] = t
	}
	return t, nil
}

func queueKey(p [2]side) string {
	if p[1].exists() {
		return p[1].path
	}
	return p[0].path
}
