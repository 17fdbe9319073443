package odb

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// CommitEntry is a commit's entry in a mapped pack, as CommitEntries lists it.
type CommitEntry struct {
	Hash plumbing.Hash
	pack *mappedPack
	off  int64
}

// CommitEntries lists the undeltified commit entries of every version 2 pack, in pack order, and their total
// inflated size. An entry's type is in its first byte, so nothing is inflated: a walk without a commit-graph
// uses the list to inflate the commits on every core (gitext's bulk walk).
func (pr *Packs) CommitEntries() ([]CommitEntry, uint64) {
	var out []CommitEntry
	var total uint64
	// Sorting small (offset, index position) pairs and building the entries after is several times quicker
	// than sorting the entries themselves, hash and all.
	type at struct {
		off int64
		pos uint32
	}
	var found []at
	for _, p := range pr.packs {
		ix, ok := p.idx.(*IndexV2)
		if !ok {
			continue
		}
		found = found[:0]
		for i := 0; i < ix.n; i++ {
			off := int64(binary.BigEndian.Uint32(ix.data[ix.offsets+i*4:]))
			if off&0x80000000 != 0 {
				pos := ix.largeOffsets + int(off&0x7fffffff)*8
				if pos+8 > len(ix.data) {
					continue
				}
				off = int64(binary.BigEndian.Uint64(ix.data[pos:]))
			}
			if off < 0 || off >= int64(len(p.data)) || (p.data[off]>>4)&7 != 1 {
				continue
			}
			found = append(found, at{off, uint32(i)})
			total += entrySize(p.data[off:])
		}
		slices.SortFunc(found, func(a, b at) int { return cmp.Compare(a.off, b.off) })
		out = slices.Grow(out, len(found))
		for _, f := range found {
			e := CommitEntry{pack: p, off: f.off}
			copy(e.Hash[:], ix.data[ix.ids+int(f.pos)*20:])
			out = append(out, e)
		}
	}
	return out, total
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
