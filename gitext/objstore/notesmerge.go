package objstore

import (
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// NoteCombine makes one note of a note both sides have: what `git notes merge -s cat_sort_uniq` does, when the
// caller passes notes.MergeLines.
type NoteCombine func(local, other []byte) []byte

// NotesMerge is the TreeMerge of two notes trees: every note of local, with each note of other added (combined
// with local's when both have one). A note of other larger than maxNote bytes is refused, and so is a notes tree
// with more than maxNotes notes: the other tree came from a remote. Entries of other that are not notes (git
// allows other files in a notes tree) are not taken.
func (r *Store) NotesMerge(combine NoteCombine, maxNote int64, maxNotes int) TreeMerge {
	return func(local, other plumbing.Hash) (plumbing.Hash, error) {
		theirs, err := r.notesIn(other, "the fetched notes")
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if len(theirs) > maxNotes {
			return plumbing.ZeroHash, fmt.Errorf("the fetched notes hold %d notes, more than the %d allowed", len(theirs), maxNotes)
		}
		put := map[string]plumbing.Hash{}
		for _, n := range theirs {
			hex := n.Target.String()
			var mine []byte
			if !local.IsZero() {
				blob, ok, err := r.findNote(local, hex)
				if err != nil {
					return plumbing.ZeroHash, err
				}
				if ok && blob == n.Blob {
					continue
				}
				if ok {
					if mine, err = r.ReadBlobMax(blob, maxNote); err != nil {
						return plumbing.ZeroHash, fmt.Errorf("note on %s: %w", hex, err)
					}
				}
			}
			text, err := r.ReadBlobMax(n.Blob, maxNote)
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("fetched note on %s: %w", hex, err)
			}
			merged := combine(mine, text)
			if mine != nil && string(merged) == string(mine) {
				continue
			}
			blob, err := r.WriteBlob(merged)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			put[hex] = blob
		}
		if len(put) == 0 {
			if local.IsZero() {
				return r.writeTree(nil)
			}
			return local, nil
		}
		return r.putNotes(local, put)
	}
}

// putNotes is putNote for many notes at once: one rewrite of each tree touched, at the fan-out each subtree
// already uses.
func (r *Store) putNotes(tree gitext.Hash, put map[string]gitext.Hash) (gitext.Hash, error) {
	entries, err := r.notesEntries(tree)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	subs := map[string]plumbing.Hash{}
	for _, e := range entries {
		if e.Mode == filemode.Dir && len(e.Name) == 2 {
			subs[e.Name] = e.Hash
		}
	}
	into := map[string]map[string]plumbing.Hash{}
	flat := map[string]plumbing.Hash{}
	for hex, blob := range put {
		if len(hex) > 2 {
			if _, ok := subs[hex[:2]]; ok {
				if into[hex[:2]] == nil {
					into[hex[:2]] = map[string]plumbing.Hash{}
				}
				into[hex[:2]][hex[2:]] = blob
				continue
			}
		}
		flat[hex] = blob
	}
	out := entries[:0:0]
	for _, e := range entries {
		if _, ok := flat[e.Name]; ok && e.Mode != filemode.Dir {
			continue
		}
		if sub, ok := into[e.Name]; ok && e.Mode == filemode.Dir {
			h, err := r.putNotes(e.Hash, sub)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			e.Hash = h
		}
		out = append(out, e)
	}
	names := make([]string, 0, len(flat))
	for hex := range flat {
		names = append(names, hex)
	}
	sort.Strings(names)
	for _, hex := range names {
		out = append(out, object.TreeEntry{Name: hex, Mode: filemode.Regular, Hash: flat[hex]})
	}
	return r.writeTree(out)
}
