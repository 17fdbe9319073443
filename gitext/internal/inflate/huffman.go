package inflate

import (
	"encoding/binary"
	"math/bits"
)

// A table entry is one uint32: bits 0-5 the number of bits to consume (the code's length, or for a pointer to a
// second-level table the first level's bits; at most 15, so that b >>= e&63 is a single shift on amd64), bits
// 8-11 the kind, bits 12-15 the extra bits that follow the code (or a second-level table's bits), bits 16-31 the
// value: a literal byte, a length or distance base, or where a second-level table starts.
const (
	kindLiteral  = 0
	kindLength   = 1
	kindEnd      = 2 // end of block
	kindSub      = 3 // a pointer to a second-level table
	kindInvalid  = 4 // a symbol RFC 1951 reserves (286, 287, distances 30, 31) or no code at all
	kindDistance = 0
	kindSymbol   = 0 // a code-length code's symbol
)

func entry(kind, extra, value uint32) uint32 { return kind<<8 | extra<<12 | value<<16 }

// Maximum first-level bits: a table of 1<<10 entries is cheap to fill for a small block and catches all but
// the rarest literals; distance codes are fewer and shorter.
const (
	maxLitPrimary  = 10
	maxDistPrimary = 8
	maxCodeLen     = 15
)

// litPayload and distPayload are the entries, less the code length, of each literal/length and distance symbol
// (RFC 1951 3.2.5). Computed once and only read.
var litPayload, distPayload = payloads()

func payloads() (lit [288]uint32, dist [32]uint32) {
	lengthBase := [29]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
		115, 131, 163, 195, 227, 258}
	lengthExtra := [29]uint32{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	for s := range 256 {
		lit[s] = entry(kindLiteral, 0, uint32(s))
	}
	lit[256] = entry(kindEnd, 0, 0)
	for i := range 29 {
		lit[257+i] = entry(kindLength, lengthExtra[i], lengthBase[i])
	}
	lit[286], lit[287] = entry(kindInvalid, 0, 0), entry(kindInvalid, 0, 0)
	base := uint32(1)
	for i := range 30 {
		extra := uint32(0)
		if i >= 4 {
			extra = uint32(i/2 - 1)
		}
		dist[i] = entry(kindDistance, extra, base)
		base += 1 << extra
	}
	dist[30], dist[31] = entry(kindInvalid, 0, 0), entry(kindInvalid, 0, 0)
	return lit, dist
}

// symbolPayload is the code-length code's payloads: the symbol itself.
var symbolPayload = func() (p [19]uint32) {
	for s := range p {
		p[s] = entry(kindSymbol, 0, uint32(s))
	}
	return p
}()

// lengthCounts is how many codes of each length (0 to 15) a code has.
type lengthCounts [maxCodeLen + 1]uint16

// countLengths counts lens' code lengths.
func countLengths(lens []uint8) (c lengthCounts) {
	for _, l := range lens {
		c[l]++
	}
	return c
}

// build makes the decoding table of the canonical Huffman code whose code lengths are lens (RFC 1951 3.2.2),
// count[l] of them of length l (the caller counts as it reads them), in tab's memory: a first level of
// min(longest code, maxPrimary) bits, indexed by the next bits of the stream (deflate sends a code's bits most
// significant first, so the index is the code reversed), and a second-level table for each first-level prefix
// of the longer codes, sized to the longest code under it (as zlib's inflate_table). sorted is scratch for the
// symbols in code order. ok is false when lens is not a code.
func build(tab []uint32, lens []uint8, count *lengthCounts, payload []uint32, maxPrimary uint, sorted []uint16) ([]uint32, uint, bool) {
	maxLen := uint(maxCodeLen)
	for maxLen > 0 && count[maxLen] == 0 {
		maxLen--
	}
	if maxLen == 0 {
		// No code: any use of it is an error (a block of literals has no distance code).
		return append(tab[:0], entry(kindInvalid, 0, 0)), 0, true
	}
	// The code must be complete, but for a single code of length one (compress/flate's and zlib's rule).
	left := 1
	for l := 1; l <= maxCodeLen; l++ {
		left = left<<1 - int(count[l])
		if left < 0 {
			return tab, 0, false
		}
	}
	incomplete := left > 0
	if incomplete && !(maxLen == 1 && count[1] == 1) {
		return tab, 0, false
	}
	// Symbols in code order: by length, then by symbol. Most symbols of a small block have no code: eight of
	// those are skipped at a time, and within a word the loop has no branch to mispredict (a symbol of length 0
	// is written to the slot after the codes and not counted).
	var offs [maxCodeLen + 1]uint16
	n := uint16(len(lens)) - count[0]
	offs[0] = n
	for l := 2; l <= maxCodeLen; l++ {
		offs[l] = offs[l-1] + count[l-1]
	}
	sorted = sorted[:len(lens)+1]
	for s := 0; s < len(lens); {
		if s+8 <= len(lens) {
			if binary.LittleEndian.Uint64(lens[s:]) == 0 {
				s += 8
				continue
			}
			for _, l := range lens[s : s+8] {
				l &= maxCodeLen
				sorted[offs[l]] = uint16(s)
				offs[l] += uint16(l+maxCodeLen) >> 4 // 0 for length 0, else 1
				s++
			}
			continue
		}
		l := lens[s] & maxCodeLen
		sorted[offs[l]] = uint16(s)
		offs[l] += uint16(l+maxCodeLen) >> 4
		s++
	}
	sorted = sorted[:n]

	pb := min(maxLen, maxPrimary)
	size := 1 << pb
	if cap(tab) < size {
		tab = make([]uint32, size, size+size/2)
	}
	tab = tab[:size]
	// The first level is filled as libdeflate's build_decode_table does: the codes of length l are stored at
	// their indexes below 1<<l, then that part is copied above itself for the codes of the next length, so that
	// every index whose low l bits are a code's gets its entry. A copy is much quicker than the strided stores
	// of filling each entry in place, and small blocks' tables are rebuilt for every object.
	// rev is the next code, bit-reversed (deflate sends codes most significant bit first). Going to a longer
	// code shifts the code left, which leaves its reversal as it is.
	rev, l := uint32(0), uint(0)
	filled := 1 // tab[:filled] holds the entries of the codes up to length l
	low, subStart, subBits := -1, 0, uint(0)
	pmask := uint32(size - 1)
	for p, s := range sorted {
		l = uint(lens[s])
		if l <= pb {
			for filled < 1<<l {
				filled += copy(tab[filled:2*filled], tab[:filled])
			}
			tab[rev] = payload[s] | uint32(l)
		} else {
			if int(rev&pmask) != low {
				// A new prefix: its second-level table is as deep as the codes left under it need (offs[l] is
				// where the codes of length l end in sorted, so offs[l]-p of them are left).
				for filled < size {
					filled += copy(tab[filled:2*filled], tab[:filled])
				}
				cur := l - pb
				room := 1 << cur
				for cur+pb < maxLen {
					left := int(count[cur+pb])
					if cur+pb == l {
						left = int(offs[l]) - p
					}
					room -= left
					if room <= 0 {
						break
					}
					cur++
					room <<= 1
				}
				low = int(rev & pmask)
				subStart, subBits = len(tab), cur
				tab = append(tab, make([]uint32, 1<<cur)...)
				tab[low] = entry(kindSub, uint32(cur), uint32(subStart)) | uint32(pb)
			}
			e := payload[s] | uint32(l-pb)
			for i := rev >> pb; i < 1<<subBits; i += 1 << (l - pb) {
				tab[subStart+int(i)] = e
			}
		}
		// The next code is this one plus one: in the reversal, the carry runs from bit l-1 down to the
		// highest zero bit, which is set, and the bits above it are cleared.
		if full := uint32(1)<<l - 1; rev != full {
			bit := uint32(1) << (bits.Len32(rev^full) - 1)
			rev = rev&(bit-1) | bit
		}
	}
	for filled < size {
		filled += copy(tab[filled:2*filled], tab[:filled])
	}
	if incomplete {
		tab[1] = entry(kindInvalid, 0, 0) // the single code is 0; 1 is no code (and the fill copied tab[0] there)
	}
	return tab, pb, true
}
