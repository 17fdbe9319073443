package odb

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/parallel"
)

// CommitEntry is a commit's entry in a mapped pack, as CommitEntries lists it.
type CommitEntry struct {
	Hash plumbing.Hash
	pack *mappedPack
	off  int64
}

// CommitEntries lists the undeltified commit entries of every version 2 pack, in pack order, and their total
// inflated size. An entry's type is in its first byte, so nothing is inflated: a walk that reads every message
// uses the list to inflate the commits on every core (gitext's bulk walk). Reading each entry's first byte
// touches the pages of the whole pack, so the index is scanned in two halves at once; where a commit-graph says
// which objects are commits, CommitEntriesOf touches only theirs.
func (pr *Packs) CommitEntries() ([]CommitEntry, uint64) {
	return pr.commitEntries(func(ix *IndexV2, lo, hi int, keep func(i int)) {
		for i := lo; i < hi; i++ {
			keep(i)
		}
	})
}

// CommitEntriesOf is CommitEntries for the commits ids names (sorted, as SortedIDs gives a commit-graph's): each
// pack index is merged with ids, both sorted by id, so only the entries of those commits are read, and the
// pages of trees and blobs are never touched. A commit ids lacks (made after the commit-graph) is not listed;
// the bulk walk reads such commits one by one.
func (pr *Packs) CommitEntriesOf(ids []plumbing.Hash) ([]CommitEntry, uint64) {
	return pr.commitEntries(func(ix *IndexV2, lo, hi int, keep func(i int)) {
		// The ids that can be in [lo, hi): from the first not below the index's id at lo.
		if lo >= hi {
			return
		}
		j, _ := slices.BinarySearchFunc(ids, ix.ID(lo), func(h plumbing.Hash, id []byte) int { return bytes.Compare(h[:], id) })
		for i := lo; i < hi && j < len(ids); {
			switch c := ix.compareAt(i, ids[j]); {
			case c == 0:
				keep(i)
				i++
				j++
			case c < 0:
				i++
			default:
				j++
			}
		}
	})
}

// commitEntries lists, for every version 2 pack, the commit entries among the index positions that positions
// keeps of each half of the index, the halves on two cores.
func (pr *Packs) commitEntries(positions func(ix *IndexV2, lo, hi int, keep func(i int))) ([]CommitEntry, uint64) {
	var out []CommitEntry
	var total uint64
	for _, p := range pr.packs {
		ix, ok := p.idx.(*IndexV2)
		if !ok {
			continue
		}
		var halves [2][]packedAt
		var sizes [2]uint64
		parallel.Each(2, 2, func(_, h int) {
			positions(ix, h*ix.n/2, (h+1)*ix.n/2, func(i int) {
				if at, size, ok := commitAt(p, ix, i); ok {
					halves[h] = append(halves[h], at)
					sizes[h] += size
				}
			})
			slices.SortFunc(halves[h], func(a, b packedAt) int { return cmp.Compare(a.off, b.off) })
		})
		total += sizes[0] + sizes[1]
		out = slices.Grow(out, len(halves[0])+len(halves[1]))
		a, b := halves[0], halves[1]
		add := func(f packedAt) {
			e := CommitEntry{pack: p, off: f.off}
			copy(e.Hash[:], ix.ID(int(f.pos)))
			out = append(out, e)
		}
		for len(a) > 0 && len(b) > 0 {
			if a[0].off < b[0].off {
				add(a[0])
				a = a[1:]
			} else {
				add(b[0])
				b = b[1:]
			}
		}
		for _, f := range a {
			add(f)
		}
		for _, f := range b {
			add(f)
		}
	}
	return out, total
}

// packedAt is a commit entry's offset and its position in the pack index. Sorting these small pairs and
// building the entries after is several times quicker than sorting the entries themselves, hash and all.
type packedAt struct {
	off int64
	pos uint32
}

// commitAt reads the entry of the index's i-th object: ok when it is an undeltified commit, with its inflated
// size.
func commitAt(p *mappedPack, ix *IndexV2, i int) (packedAt, uint64, bool) {
	off, err := ix.offsetAt(i)
	if err != nil || off < 0 || off >= int64(len(p.data)) || (p.data[off]>>4)&7 != 1 {
		return packedAt{}, 0, false
	}
	return packedAt{off, uint32(i)}, entrySize(p.data[off:]), true
}

// entrySize is the inflated size in a pack entry's header.
func entrySize(b []byte) uint64 {
	size := uint64(b[0] & 15)
	shift := uint(4)
	for i := 1; b[i-1]&0x80 != 0 && i < len(b) && shift < 60; i++ {
		size |= uint64(b[i]&0x7f) << shift
		shift += 7
	}
	return size
}

// ReadCommitEntry inflates the commit at e; ok is false when the entry is unreadable (the caller then reads the
// commit by its id, and gets the fallback's error if it is broken).
func (pr *Packs) ReadCommitEntry(e CommitEntry) ([]byte, bool) {
	_, raw, ok := pr.entryAt(e.pack, e.off, false, 0)
	return raw, ok
}

// Contains says whether some pack's index lists h.
func (pr *Packs) Contains(h plumbing.Hash) bool {
	for _, p := range pr.packs {
		if _, err := p.idx.FindOffset(h); err == nil {
			return true
		}
	}
	return false
}
