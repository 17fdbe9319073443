package inflate

import "math/bits"

// A table entry is one uint32: bits 0-3 the number of bits to consume (the code's length, or for a pointer to a
// second-level table the first level's bits), bits 4-7 the kind, bits 8-15 the extra bits that follow the code
// (or a second-level table's bits), bits 16-31 the value: a literal byte, a length or distance base, or where a
// second-level table starts.
const (
	kindLiteral  = 0
	kindLength   = 1
	kindEnd      = 2 // end of block
	kindSub      = 3 // a pointer to a second-level table
	kindInvalid  = 4 // a symbol RFC 1951 reserves (286, 287, distances 30, 31) or no code at all
	kindDistance = 0
	kindSymbol   = 0 // a code-length code's symbol
)

func entry(kind, extra, value uint32) uint32 { return kind<<4 | extra<<8 | value<<16 }

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

// build makes the decoding table of the canonical Huffman code whose code lengths are lens (RFC 1951 3.2.2)
// in tab's memory: a first level of min(longest code, maxPrimary) bits, indexed by the next bits of the
// stream (deflate sends a code's bits most significant first, so the index is the code reversed), and a
// second-level table for each first-level prefix of the longer codes, sized to the longest code under it (as
// zlib's inflate_table). sorted is scratch for the symbols in code order. ok is false when lens is not a code.
func build(tab []uint32, lens []uint8, payload []uint32, maxPrimary uint, sorted []uint16) ([]uint32, uint, bool) {
	var count [maxCodeLen + 1]uint16
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
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
	// Symbols in code order: by length, then by symbol.
	var offs [maxCodeLen + 2]uint16
	for l := 1; l <= maxCodeLen; l++ {
		offs[l+1] = offs[l] + count[l]
	}
	n := int(offs[maxCodeLen+1])
	sorted = sorted[:n]
	for s, l := range lens {
		if l != 0 {
			sorted[offs[l]] = uint16(s)
			offs[l]++
		}
	}

	pb := min(maxLen, maxPrimary)
	size := 1 << pb
	if cap(tab) < size {
		tab = make([]uint32, size, size+size/2)
	}
	tab = tab[:size]
	if incomplete {
		tab[1] = entry(kindInvalid, 0, 0)
	}
	remain := count
	code, l := uint32(0), uint(lens[sorted[0]])
	low, subStart, subBits := -1, 0, uint(0)
	pmask := uint32(size - 1)
	for _, s := range sorted {
		sl := uint(lens[s])
		code <<= sl - l
		l = sl
		rev := bits.Reverse16(uint16(code)) >> (16 - l)
		if l <= pb {
			e := payload[s] | uint32(l)
			for i := uint32(rev); i < uint32(size); i += 1 << l {
				tab[i] = e
			}
		} else {
			if int(uint32(rev)&pmask) != low {
				// A new prefix: its second-level table is as deep as the codes left under it need.
				cur := l - pb
				room := 1 << cur
				for cur+pb < maxLen {
					room -= int(remain[cur+pb])
					if room <= 0 {
						break
					}
					cur++
					room <<= 1
				}
				low = int(uint32(rev) & pmask)
				subStart, subBits = len(tab), cur
				tab = append(tab, make([]uint32, 1<<cur)...)
				tab[low] = entry(kindSub, uint32(cur), uint32(subStart)) | uint32(pb)
			}
			e := payload[s] | uint32(l-pb)
			for i := uint32(rev) >> pb; i < 1<<subBits; i += 1 << (l - pb) {
				tab[subStart+int(i)] = e
			}
		}
		remain[l]--
		code++
	}
	return tab, pb, true
}
