package apply

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ReadObject returns an object's type and content (gitext.Repo.ReadObject).
type ReadObject func(plumbing.Hash) (plumbing.ObjectType, []byte, error)

const (
	modeDir     = 0o040000
	modeRegular = 0o100644
	modeExec    = 0o100755
	modeSymlink = 0o120000
	modeGitlink = 0o160000
)

// entry is a file of a tree: its canonical mode and its blob (or, for a gitlink, commit) id.
type entry struct {
	mode uint32
	id   plumbing.Hash
}

func (e *entry) String() string {
	if e == nil {
		return "nothing"
	}
	return fmt.Sprintf("%06o %s", e.mode, e.id)
}

// CheckTrees applies a part's file sections to the tree from (the zero hash: the empty tree, for a root commit)
// in memory and compares the outcome with the tree to. It returns one line for each difference (a section that
// does not apply, an index line that names other blobs, a file the result and to disagree on, a file to
// changes that no section touches, a path two sections write); none when the part turns from into exactly
// to. Every section reads the old side from from itself, as all pairs of a tree diff are relative to the same
// old tree; so a path may be written by one section only (a deletion then a creation, git's way of showing a
// file that becomes a symlink, counts as one), since `git am` would apply a second section on top of the
// first. unjudged lists sections over the budget (MaxFileSize), which were not applied. The error is for an
// object that could not be read (a partial clone offline, a corrupt repository): then nothing was decided.
func CheckTrees(read ReadObject, from, to plumbing.Hash, files []*File) (problems, unjudged []string, err error) {
	t := &trees{read: read, cache: map[plumbing.Hash]map[string]entry{}}
	state := map[string]*entry{}    // the part's outcome: nil for a path it removes
	failed := map[string]bool{}     // paths of sections that did not apply: reported once, not compared
	badIndex := map[string]string{} // an index line whose new id is not the outcome: said if nothing worse is
	written := map[string]int{}     // path → line of the section that writes it
	removed := map[string]int{}     // path → line of the section that deletes or renames it away
	for _, f := range files {
		name := f.NewName
		if name == "" {
			name = f.OldName
		}
		problem := func(format string, a ...any) {
			problems = append(problems, fmt.Sprintf("line %d: %s: ", f.Line, quoteIfNeeded(name))+fmt.Sprintf(format, a...))
			failed[f.OldName], failed[f.NewName] = true, true
		}
		if f.OldName != "" && (f.IsDeleted || f.IsRename) {
			if at, ok := written[f.OldName]; ok {
				problem("the section at line %d already wrote %s, and this one removes it: git am would apply both", at, quoteIfNeeded(f.OldName))
				continue
			}
			if at, ok := removed[f.OldName]; ok {
				problem("the section at line %d already removed %s", at, quoteIfNeeded(f.OldName))
				continue
			}
			removed[f.OldName] = f.Line
		}
		if f.NewName != "" {
			if at, ok := written[f.NewName]; ok {
				problem("a second section for it (the first is at line %d): git am would apply both, one on top of the other", at)
				continue
			}
			if at, ok := removed[f.NewName]; ok && !f.IsNew {
				problem("the section at line %d removed it, and this one changes it", at)
				continue
			}
			written[f.NewName] = f.Line
		}
		var old *entry
		if f.OldName != "" {
			e, err := t.lookup(from, f.OldName)
			if err != nil {
				return nil, nil, err
			}
			if e == nil {
				problem("the part changes %s, which the parent's tree does not have", quoteIfNeeded(f.OldName))
				continue
			}
			old = e
			if f.OldID != "" && !strings.HasPrefix(old.id.String(), f.OldID) {
				problem("the index line names old blob %s, the parent has %s", f.OldID, old.id)
			}
			if f.OldMode != 0 && canonMode(f.OldMode) != old.mode {
				problem("the part says the old mode is %06o, the parent has %06o", f.OldMode, old.mode)
			}
		} else if e, err := t.current(state, from, f.NewName); err != nil {
			return nil, nil, err
		} else if e != nil {
			problem("the part creates it, but the parent's tree already has it (%s)", e)
			continue
		}
		if f.NewName == "" && (len(f.Fragments) > 0 || f.Binary != nil || f.NoBinaryData) {
			// A deletion's hunk must remove exactly the parent's content, as git apply checks it.
			oldData, err := t.content(old)
			if err != nil {
				return nil, nil, err
			}
			if _, err := f.Content(oldData, 0); errors.Is(err, ErrOverBudget) {
				unjudged = append(unjudged, fmt.Sprintf("line %d: %s: %v", f.Line, quoteIfNeeded(name), err))
				continue
			} else if err != nil {
				problem("the deletion does not apply: %v", err)
				continue
			}
		}
		var res *entry
		if f.NewName != "" {
			res = &entry{mode: canonMode(f.NewMode)}
			if f.NewMode == 0 {
				if old == nil {
					problem("a new file without a mode")
					continue
				}
				res.mode = old.mode
			}
			var oldData []byte
			if old != nil {
				data, err := t.content(old)
				if err != nil {
					return nil, nil, err
				}
				oldData = data
			}
			// The size of the commit's own file bounds every size the section states.
			want := int64(-1)
			if e, err := t.lookup(to, f.NewName); err != nil {
				return nil, nil, err
			} else if e != nil {
				data, err := t.content(e)
				if err != nil {
					return nil, nil, err
				}
				want = int64(len(data))
			}
			data, err := f.Content(oldData, want)
			if errors.Is(err, ErrOverBudget) {
				unjudged = append(unjudged, fmt.Sprintf("line %d: %s: %v", f.Line, quoteIfNeeded(name), err))
				failed[f.OldName], failed[f.NewName] = true, true
				continue
			}
			if err != nil {
				problem("does not apply: %v", err)
				continue
			}
			// The reverse hunk must give the parent's file back: git apply inflates it too, and at a corrupt one
			// it stops reading the patch and applies only the sections before it (apply.c apply_patch).
			if f.Reverse != nil {
				back, err := (&File{Binary: f.Reverse}).Content(data, int64(len(oldData)))
				if err == nil && !bytes.Equal(back, oldData) {
					err = errors.New("it makes other bytes")
				}
				if err != nil {
					problem("the reverse binary hunk does not give back the parent's file: %v", err)
					continue
				}
			}
			if res.id, err = idOf(res.mode, data); err != nil {
				problem("%v", err)
				continue
			}
			if f.NewID != "" && !strings.HasPrefix(res.id.String(), f.NewID) {
				badIndex[f.NewName] = fmt.Sprintf("line %d: %s: the index line names new blob %s, applying the part gives %s", f.Line, quoteIfNeeded(f.NewName), f.NewID, res.id)
			}
		}
		if f.OldName != "" && (f.IsDeleted || f.IsRename) {
			state[f.OldName] = nil
		}
		if f.NewName != "" {
			state[f.NewName] = res
		}
	}

	changed := map[string]*entry{}
	if err := t.diff(from, to, "", changed); err != nil {
		return nil, nil, err
	}
	paths := make([]string, 0, len(state)+len(changed))
	for p := range state {
		paths = append(paths, p)
	}
	for p := range changed {
		if _, ok := state[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		if failed[p] {
			continue
		}
		got, touched := state[p]
		want, ok := changed[p]
		if !ok {
			e, err := t.lookup(from, p) // unchanged by the commit
			if err != nil {
				return nil, nil, err
			}
			want = e
		}
		switch {
		case !touched:
			problems = append(problems, fmt.Sprintf("%s: the commit makes it %s, the part leaves it as it was", quoteIfNeeded(p), want))
		case !sameEntry(got, want):
			problems = append(problems, fmt.Sprintf("%s: the part makes it %s, the commit has %s", quoteIfNeeded(p), got, want))
		case badIndex[p] != "":
			problems = append(problems, badIndex[p])
		}
	}
	return problems, unjudged, nil
}

func sameEntry(a, b *entry) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// idOf is the id a tree records for content of that mode: the blob's hash, or for a gitlink the commit its
// "Subproject commit <id>" line names.
func idOf(mode uint32, data []byte) (plumbing.Hash, error) {
	if mode != modeGitlink {
		return plumbing.ComputeHash(plumbing.BlobObject, data), nil
	}
	hex, ok := bytes.CutPrefix(bytes.TrimSuffix(data, []byte("\n")), []byte("Subproject commit "))
	if !ok || len(hex) != 40 || !plumbing.IsHash(string(hex)) {
		return plumbing.ZeroHash, fmt.Errorf("a gitlink whose content is not \"Subproject commit <id>\": %q", clip(data))
	}
	return plumbing.NewHash(string(hex)), nil
}

// canonMode is git's canon_mode: a regular file is 100644 or 100755 whatever other bits a tree records.
func canonMode(m uint32) uint32 {
	switch m & 0o170000 {
	case modeSymlink, modeGitlink, modeDir:
		return m & 0o170000
	}
	if m&0o111 != 0 {
		return modeExec
	}
	return modeRegular
}

// trees reads and caches trees as name → entry (subtrees with modeDir).
type trees struct {
	read  ReadObject
	cache map[plumbing.Hash]map[string]entry
}

func (t *trees) tree(h plumbing.Hash) (map[string]entry, error) {
	if h.IsZero() {
		return nil, nil
	}
	if m, ok := t.cache[h]; ok {
		return m, nil
	}
	typ, data, err := t.read(h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	if typ != plumbing.TreeObject {
		return nil, fmt.Errorf("object %s is a %s, not a tree", h, typ)
	}
	m := map[string]entry{}
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+21 {
			return nil, fmt.Errorf("tree %s is corrupt; run git fsck", h)
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("tree %s is corrupt (mode %q); run git fsck", h, data[:sp])
		}
		var id plumbing.Hash
		copy(id[:], data[nul+1:nul+21])
		m[string(data[sp+1:nul])] = entry{mode: canonMode(uint32(mode)), id: id}
		data = data[nul+21:]
	}
	t.cache[h] = m
	return m, nil
}

// lookup finds path's file in the tree root; nil when there is none (or it is a folder).
func (t *trees) lookup(root plumbing.Hash, path string) (*entry, error) {
	h := root
	for {
		m, err := t.tree(h)
		if err != nil {
			return nil, err
		}
		name, rest, more := strings.Cut(path, "/")
		e, ok := m[name]
		if !ok {
			return nil, nil
		}
		if !more {
			if e.mode == modeDir {
				return nil, nil
			}
			return &e, nil
		}
		if e.mode != modeDir {
			return nil, nil
		}
		h, path = e.id, rest
	}
}

// current is path as the part has left it so far, else as the tree root has it.
func (t *trees) current(state map[string]*entry, root plumbing.Hash, path string) (*entry, error) {
	if e, ok := state[path]; ok {
		return e, nil
	}
	return t.lookup(root, path)
}

// content is a file's content as a patch shows it: the blob, or a gitlink's "Subproject commit <id>" line.
func (t *trees) content(e *entry) ([]byte, error) {
	if e.mode == modeGitlink {
		return []byte("Subproject commit " + e.id.String() + "\n"), nil
	}
	typ, data, err := t.read(e.id)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", e.id, err)
	}
	if typ != plumbing.BlobObject {
		return nil, fmt.Errorf("object %s is a %s, not a blob", e.id, typ)
	}
	return data, nil
}

// diff records in out every file whose entry differs between trees a and b, with b's entry (nil: b lacks it),
// reading only subtrees whose ids differ.
func (t *trees) diff(a, b plumbing.Hash, prefix string, out map[string]*entry) error {
	if a == b {
		return nil
	}
	ma, err := t.tree(a)
	if err != nil {
		return err
	}
	mb, err := t.tree(b)
	if err != nil {
		return err
	}
	for name, ea := range ma {
		eb, ok := mb[name]
		switch {
		case !ok:
			if err := t.side(ea, prefix+name, out, false); err != nil {
				return err
			}
		case ea.mode == modeDir && eb.mode == modeDir:
			if err := t.diff(ea.id, eb.id, prefix+name+"/", out); err != nil {
				return err
			}
		case ea.mode == modeDir || eb.mode == modeDir:
			if err := t.side(ea, prefix+name, out, false); err != nil {
				return err
			}
			if err := t.side(eb, prefix+name, out, true); err != nil {
				return err
			}
		case ea != eb:
			e := eb
			out[prefix+name] = &e
		}
	}
	for name, eb := range mb {
		if _, ok := ma[name]; !ok {
			if err := t.side(eb, prefix+name, out, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// side records every file of e (a file, or a folder's files) as removed, or as added when added is set.
func (t *trees) side(e entry, path string, out map[string]*entry, added bool) error {
	if e.mode != modeDir {
		if added {
			out[path] = &e
		} else if _, ok := out[path]; !ok {
			out[path] = nil
		}
		return nil
	}
	m, err := t.tree(e.id)
	if err != nil {
		return err
	}
	for name, sub := range m {
		if err := t.side(sub, path+"/"+name, out, added); err != nil {
			return err
		}
	}
	return nil
}

// quoteIfNeeded shows a path plainly, or quoted when it holds characters a report line should not.
func quoteIfNeeded(p string) string {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f || c == '"' || c == '\\' {
			return strconv.Quote(p)
		}
	}
	return p
}
