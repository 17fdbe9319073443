package odb

import (
	"bytes"
	"cmp"
	"encoding/binary"
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

// CommitEntries lists the commit entries at the start of every version 2 pack, in pack order, and
// their total inflated size. An entry's type is in its first byte, so nothing is inflated: a walk that reads
// every message uses the list to inflate the commits on every core (gitext's bulk walk).
//
// Only the pack's commit region is read. git's pack-objects writes the commits and tags first (after any tagged
// tip, in recency order), then the trees, then the blobs (compute_write_order in builtin/pack-objects.c), and a
// real pack is mostly trees and blobs: Kafka's clone is 216 MB, its 20,873 commits about 9 MB at its start.
// Reading the type byte of every entry faulted in the whole pack (a third of a first run's CPU there, and all of
// the pack in its peak RSS); here the entries are taken in pack order (from the .rev file when git wrote one, else
// from the index's offsets, bucketed by offset so that only the region is ever sorted) and the scan stops at the
// first run of regionSlack trees and blobs. A commit past that point (a pack some other tool wrote in another
// order) is not listed, and the bulk walk reads it by its id, as it reads loose commits.
func (pr *Packs) CommitEntries() ([]CommitEntry, uint64) {
	var out []CommitEntry
	var total uint64
	for _, p := range pr.packs {
		ix, ok := p.idx.(*IndexV2)
		if !ok {
			continue
		}
		found, size := commitRegion(p, ix)
		total += size
		out = slices.Grow(out, len(found))
		for _, f := range found {
			e := CommitEntry{pack: p, off: f.off}
			copy(e.Hash[:], ix.ID(int(f.pos)))
			out = append(out, e)
		}
	}
	return out, total
}

// regionSlack is how many trees and blobs in a row end a pack's commit region: git writes a tagged tip that is a
// tree or blob among the commits, and a few such do not end it.
const regionSlack = 64

// regionScan follows a pack's entries in pack order through its commit region and keeps its commits.
type regionScan struct {
	p        *mappedPack
	commits  []packedAt
	size     uint64
	trailing int // trees and blobs in a row
}

// take looks at the entry at off (index position pos); false once the region has ended.
func (s *regionScan) take(off int64, pos uint32) bool {
	if off < 0 || off >= int64(len(s.p.data)) {
		return true // a bad offset: skipped here, the walk reads that object by its id if it needs it
	}
	switch typ := s.p.data[off] >> 4 & 7; typ {
	case 1:
		s.commits = append(s.commits, packedAt{off, pos})
		s.size += entrySize(s.p.data[off:])
		s.trailing = 0
	case 4:
		s.trailing = 0
	default:
		// A delta is a commit or tag when its base is: follow its chain by the entries' headers alone. A
		// deltified commit is listed too (git deltifies a commit against a similar one, a revert or a
		// cherry-pick); its size here is the delta's, which only bounds the bulk read.
		if typ == 6 || typ == 7 {
			switch baseType(s.p, off) {
			case 1:
				s.commits = append(s.commits, packedAt{off, pos})
				s.size += entrySize(s.p.data[off:])
				s.trailing = 0
				return true
			case 4:
				s.trailing = 0
				return true
			}
		}
		s.trailing++
	}
	return s.trailing < regionSlack
}

// commitRegion lists the commit entries of p's commit region in pack order, and their inflated size.
func commitRegion(p *mappedPack, ix *IndexV2) ([]packedAt, uint64) {
	s := &regionScan{p: p}
	if rev := mapRev(p.revPath, ix.n); rev != nil {
		defer unmapFile(rev)
		for i := 0; i < ix.n; i++ {
			pos := binary.BigEndian.Uint32(rev[revHeader+4*i:])
			if int(pos) >= ix.n {
				break // a corrupt .rev: what was read so far is all the bulk read gets
			}
			off, err := ix.offsetAt(int(pos))
			if err == nil && !s.take(off, pos) {
				break
			}
		}
		return s.commits, s.size
	}
	// Without a .rev, the index's positions are put in pack order by a counting sort on the offset's high bits
	// (about 2^16 buckets, a handful of entries each), and only the buckets up to the region's end are sorted.
	// The offsets are read from the index again rather than kept: four bytes an object, not twelve.
	if ix.n == 0 || len(p.data) == 0 {
		return nil, 0
	}
	shift := 0
	for (len(p.data)-1)>>shift >= 1<<16 {
		shift++
	}
	buckets := (len(p.data)-1)>>shift + 1
	offsetAt := func(i int) (int64, bool) {
		off, err := ix.offsetAt(i)
		return off, err == nil && off >= 0 && off < int64(len(p.data)) // else never in pack order: read by id if needed
	}
	start := make([]uint32, buckets+1)
	for i := 0; i < ix.n; i++ {
		if off, ok := offsetAt(i); ok {
			start[off>>shift+1]++
		}
	}
	for b := 1; b <= buckets; b++ {
		start[b] += start[b-1]
	}
	order := make([]uint32, start[buckets])
	fill := slices.Clone(start[:buckets])
	for i := 0; i < ix.n; i++ {
		if off, ok := offsetAt(i); ok {
			order[fill[off>>shift]] = uint32(i)
			fill[off>>shift]++
		}
	}
	var in []packedAt
	for b := 0; b < buckets; b++ {
		in = in[:0]
		for _, pos := range order[start[b]:start[b+1]] {
			off, _ := offsetAt(int(pos))
			in = append(in, packedAt{off, pos})
		}
		slices.SortFunc(in, func(x, y packedAt) int { return cmp.Compare(x.off, y.off) })
		for _, e := range in {
			if !s.take(e.off, e.pos) {
				return s.commits, s.size
			}
		}
	}
	return s.commits, s.size
}

// revHeader is the size of a .rev file's header: "RIDX", version 1, hash function 1 (SHA-1) (gitformat-pack,
// "pack-*.rev files have the format").
const revHeader = 12

// mapRev maps the reverse index at path when it is a version 1, SHA-1 one for n objects; nil otherwise.
func mapRev(path string, n int) []byte {
	if path == "" {
		return nil
	}
	data, err := mapFile(path)
	if err != nil {
		return nil
	}
	if len(data) != revHeader+4*n+2*20 || string(data[:4]) != "RIDX" ||
		binary.BigEndian.Uint32(data[4:]) != 1 || binary.BigEndian.Uint32(data[8:]) != 1 {
		unmapFile(data)
		return nil
	}
	return data
}

// baseType is the type of the object the delta entry at off resolves to (its chain's base entry's type), read
// from the entries' headers alone; 0 when the chain does not read.
func baseType(p *mappedPack, off int64) byte {
	for depth := 0; depth <= maxDeltaDepth; depth++ {
		if off < 0 || off >= int64(len(p.data)) {
			return 0
		}
		b := p.data[off:]
		typ := b[0] >> 4 & 7
		if typ != 6 && typ != 7 {
			return typ
		}
		i := 1
		for b[i-1]&0x80 != 0 {
			if i >= len(b) {
				return 0
			}
			i++
		}
		if typ == 7 {
			if i+20 > len(b) {
				return 0
			}
			var h plumbing.Hash
			copy(h[:], b[i:i+20])
			boff, err := p.idx.FindOffset(h)
			if err != nil {
				return 0
			}
			off = boff
			continue
		}
		if i >= len(b) {
			return 0
		}
		c := b[i]
		i++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= len(b) || rel > 1<<48 {
				return 0
			}
			c = b[i]
			i++
			rel = ((rel + 1) << 7) | int64(c&0x7f)
		}
		off -= rel
	}
	return 0
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

// commitAt reads the entry of the index's i-th object: ok when it is a commit (deltified or not), with its
// inflated size (a delta's own size for a deltified one).
func commitAt(p *mappedPack, ix *IndexV2, i int) (packedAt, uint64, bool) {
	off, err := ix.offsetAt(i)
	if err != nil || off < 0 || off >= int64(len(p.data)) {
		return packedAt{}, 0, false
	}
	switch typ := (p.data[off] >> 4) & 7; {
	case typ == 1:
	case (typ == 6 || typ == 7) && baseType(p, off) == 1:
	default:
		return packedAt{}, 0, false
	}
	return packedAt{off, uint32(i)}, entrySize(p.data[off:]), true
}

// entrySize is the inflated size in a pack entry's header (as far as it can be read: an estimate for sizing).
func entrySize(b []byte) uint64 {
	_, size, _, _ := entryHeader(b)
	return size
}

// entryHeader reads a pack entry's header at the start of b (not empty): its type, the size it inflates to,
// and the header's length; ok is false for a header that runs past b or past 64 bits (size is then what was
// read of it).
func entryHeader(b []byte) (typ byte, size uint64, n int, ok bool) {
	typ, size = (b[0]>>4)&7, uint64(b[0]&15)
	n = 1
	for shift := uint(4); b[n-1]&0x80 != 0; shift += 7 {
		if n >= len(b) || shift > 60 {
			return typ, size, n, false
		}
		size |= uint64(b[n]&0x7f) << shift
		n++
	}
	return typ, size, n, true
}

// ReadCommitEntry inflates the commit at e; ok is false when the entry is unreadable (the caller then reads the
// commit by its id, and gets the fallback's error if it is broken).
func (pr *Packs) ReadCommitEntry(e CommitEntry) ([]byte, bool) {
	_, raw, ok := pr.entryAt(e.pack, e.off, false, 0)
	return raw, ok
}

// ReadCommitEntryInto is ReadCommitEntry inflating into buf's array, grown if it is too small, when the entry
// is a whole commit (not a delta): a caller that is done with one commit's bytes before it reads the next can
// read them all with one buffer. A deltified commit comes back in an array of its own.
func (pr *Packs) ReadCommitEntryInto(e CommitEntry, buf []byte) ([]byte, bool) {
	b := e.pack.data[e.off:]
	if len(b) == 0 || (b[0]>>4)&7 != 1 {
		return pr.ReadCommitEntry(e)
	}
	_, size, n, ok := entryHeader(b)
	if !ok || size > maxEntrySize {
		return nil, false
	}
	pr.touchEntry(e.pack, e.off, n, size)
	buf = slices.Grow(buf[:0], int(size))[:size]
	return buf, pr.inflateInto(buf, b[n:])
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
