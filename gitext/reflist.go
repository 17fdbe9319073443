package gitext

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/nofollow"
)

// listedRef is a branch, remote-tracking branch or tag as git stores it: the object it names and, for a name
// read from packed-refs, the object packed-refs records it peels to (zero when it records none).
type listedRef struct {
	name       RefName
	id, peeled Hash
	symbolic   bool
}

// Bounds on what listRefs reads itself; past them (or on anything else unusual) go-git lists the refs instead.
const (
	maxLooseRef   = 4 << 10
	maxPackedRefs = 1 << 30
)

// historyPrefixes are the ref folders whose refs count as history, in the order go-git's sorted walk of refs/
// meets them.
var historyPrefixes = [...]string{"heads", "remotes", "tags"}

// listRefs lists the branches, remote-tracking branches and tags in the order go-git's References does (loose
// refs by a sorted depth-first walk, then packed-refs' names no loose ref has), without go-git's per-file walk of
// every path component, and keeps packed-refs' peeled ids: git writes them ("^<id>" lines) so that readers need
// not read each annotated tag object, and HistoryTips then reads none whose target the commit-graph lists.
// packed-refs is git's own record of the refs, trusted as far as the refs it lists are.
//
// ok is false when anything is not the plain case git writes — a symlink or hard link anywhere in the walk, a
// file that is not a ref, an over-large file, a line of packed-refs it does not know — and the caller lists the
// refs through go-git as before (goGitRefs), so nothing that read before reads differently.
func (r *Repo) listRefs() (refs []listedRef, ok bool) {
	root, err := nofollow.OpenDir(path.Join(r.CommonDir, "refs"))
	if err != nil {
		return nil, false
	}
	defer root.Close()
	seen := map[RefName]bool{}
	ents, err := root.ReadDir()
	if err != nil {
		return nil, false
	}
	for _, prefix := range historyPrefixes {
		i := indexEntry(ents, prefix)
		if i < 0 {
			continue
		}
		if !ents[i].IsDir() {
			return nil, false
		}
		if refs, ok = walkLoose(root, prefix, refs, seen); !ok {
			return nil, false
		}
	}
	return readPackedRefs(r.CommonDir, refs, seen)
}

// indexEntry is the position of name in a listing, or -1.
func indexEntry(ents []fs.DirEntry, name string) int {
	for i, e := range ents {
		if e.Name() == name {
			return i
		}
	}
	return -1
}

// walkLoose appends the loose refs under rel (a folder beneath refs/), sorted depth-first as go-git walks them.
func walkLoose(root *nofollow.Dir, rel string, refs []listedRef, seen map[RefName]bool) ([]listedRef, bool) {
	d, err := root.OpenDir(rel)
	if err != nil {
		return nil, false
	}
	ents, err := d.ReadDir()
	d.Close()
	if err != nil {
		return nil, false
	}
	for _, e := range ents {
		child := rel + "/" + e.Name()
		switch {
		case e.IsDir():
			var ok bool
			if refs, ok = walkLoose(root, child, refs, seen); !ok {
				return nil, false
			}
		case e.Type().IsRegular():
			ref, ok := readLooseRef(root, child)
			if !ok {
				return nil, false
			}
			if !seen[ref.name] {
				seen[ref.name] = true
				refs = append(refs, ref)
			}
		default:
			return nil, false // a symlink (git's old symbolic refs) or a special file: go-git's way
		}
	}
	return refs, true
}

// readLooseRef reads one loose ref file: an object id, or "ref: " and the ref it points to.
func readLooseRef(root *nofollow.Dir, rel string) (listedRef, bool) {
	f, _, err := root.Open(rel)
	if err != nil {
		return listedRef{}, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLooseRef+1))
	if err != nil || len(b) > maxLooseRef {
		return listedRef{}, false
	}
	ref := listedRef{name: plumbing.ReferenceName("refs/" + rel)}
	line := bytes.TrimSpace(b)
	if bytes.HasPrefix(line, []byte("ref: ")) {
		ref.symbolic = true
		return ref, true
	}
	id, ok := parseHexID(line)
	ref.id = id
	return ref, ok
}

// readPackedRefs appends packed-refs' history refs that no loose ref has, with their peeled ids.
func readPackedRefs(commonDir string, refs []listedRef, seen map[RefName]bool) ([]listedRef, bool) {
	dir, err := nofollow.OpenDir(commonDir)
	if err != nil {
		return nil, false
	}
	defer dir.Close()
	f, st, err := dir.Open("packed-refs")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return refs, true
		}
		return nil, false
	}
	defer f.Close()
	if st.Size() > maxPackedRefs {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPackedRefs+1))
	if err != nil || len(data) > maxPackedRefs {
		return nil, false
	}
	last := -1 // the ref a "^" line peels: the one on the line before, when this file listed it
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(line) == 0 || line[0] == '#':
			last = -1
		case line[0] == '^':
			id, ok := parseHexID(line[1:])
			if !ok {
				return nil, false
			}
			if last >= 0 {
				refs[last].peeled = id
			}
			last = -1
		default:
			sp := bytes.IndexByte(line, ' ')
			if sp < 0 {
				return nil, false
			}
			id, ok := parseHexID(line[:sp])
			if !ok {
				return nil, false
			}
			name := plumbing.ReferenceName(line[sp+1:])
			last = -1
			if !isHistoryRef(name) || seen[name] {
				continue
			}
			seen[name] = true
			refs = append(refs, listedRef{name: name, id: id})
			last = len(refs) - 1
		}
	}
	return refs, true
}

// isHistoryRef: a local or remote-tracking branch or a tag.
func isHistoryRef(name RefName) bool {
	return name.IsBranch() || name.IsRemote() || name.IsTag()
}
