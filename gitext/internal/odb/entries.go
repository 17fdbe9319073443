package odb

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sync"

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
// uses the list to inflate the commits on every core (gitext's bulk walk). Reading each entry's first byte
// touches the pages of the whole pack, so the index is scanned in two halves at once.
func (pr *Packs) CommitEntries() ([]CommitEntry, uint64) {
	var out []CommitEntry
	var total uint64
	for _, p := range pr.packs {
		ix, ok := p.idx.(*IndexV2)
		if !ok {
			continue
		}
		var halves [2][]packedAt
		var sizes [2]uint64
		var wg sync.WaitGroup
		for h := range halves {
			wg.Add(1)
			go func() {
				defer wg.Done()
				halves[h], sizes[h] = commitsAt(p, ix, h*ix.n/2, (h+1)*ix.n/2)
			}()
		}
		wg.Wait()
		total += sizes[0] + sizes[1]
		out = slices.Grow(out, len(halves[0])+len(halves[1]))
		a, b := halves[0], halves[1]
		add := func(f packedAt) {
			e := CommitEntry{pack: p, off: f.off}
			copy(e.Hash[:], ix.data[ix.ids+int(f.pos)*20:])
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

// commitsAt lists the commit entries among index positions [lo, hi), sorted by offset, and their inflated size.
func commitsAt(p *mappedPack, ix *IndexV2, lo, hi int) ([]packedAt, uint64) {
	var found []packedAt
	var total uint64
	for i := lo; i < hi; i++ {
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
		found = append(found, packedAt{off, uint32(i)})
		total += entrySize(p.data[off:])
	}
	slices.SortFunc(found, func(a, b packedAt) int { return cmp.Compare(a.off, b.off) })
	return found, total
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
