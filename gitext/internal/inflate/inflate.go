package inflate

import (
	"encoding/binary"
	"errors"
)

// ErrCorrupt is the error for any stream that does not decode to exactly the expected bytes.
var ErrCorrupt = errors.New("corrupt zlib stream")

// Decoder inflates zlib streams held whole in memory (see the package doc). Its zero value is ready; it keeps
// its tables' memory between calls, so keep one per goroutine (a Decoder is not safe for concurrent use).
type Decoder struct {
	lit, dist, pre    []uint32 // tables of the current dynamic block
	fixedLit, fixDist []uint32 // tables of the fixed code (RFC 1951 3.2.6), built on first use
	lens              [288 + 32]uint8
	sorted            [288 + 1]uint16
}

// Zlib inflates the zlib stream at the start of src into dst, which it must fill exactly; bytes of src after
// the stream's checksum are ignored. Any other stream (truncated, corrupt, longer or shorter than dst, a wrong
// checksum, a preset dictionary) gives an error wrapping ErrCorrupt, and dst then holds no meaningful bytes.
func (d *Decoder) Zlib(dst, src []byte) error {
	// RFC 1950 2.2: CM 8 (deflate), a window of at most 32 KiB, the check bits, no preset dictionary.
	if len(src) < 2 || src[0]&0x0f != 8 || src[0]>>4 > 7 || (uint(src[0])<<8|uint(src[1]))%31 != 0 ||
		src[1]&0x20 != 0 {
		return corrupt("not a zlib header")
	}
	r := bitReader{src: src, pos: 2}
	o := 0
	for final := false; !final; {
		if !r.refill() {
			return truncated
		}
		final = r.b&1 == 1
		typ := r.b >> 1 & 3
		r.b >>= 3
		r.nb -= 3
		var err error
		switch typ {
		case 0:
			o, err = r.stored(dst, o)
		case 1:
			if d.fixedLit == nil {
				d.buildFixed()
			}
			o, err = r.huffman(dst, o, d.fixedLit, d.fixDist, 9, 5)
		case 2:
			var lb, db uint
			if lb, db, err = d.dynamicTables(&r); err == nil {
				o, err = r.huffman(dst, o, d.lit, d.dist, lb, db)
			}
		default:
			err = corrupt("reserved block type 3")
		}
		if err != nil {
			return err
		}
	}
	if o != len(dst) {
		return corrupt("stream ends before the expected size")
	}
	// The Adler-32 of the data, big-endian, after the last block's padding bits (RFC 1950 2.2).
	if !r.align() || r.pos+4 > len(src) {
		return truncated
	}
	if binary.BigEndian.Uint32(src[r.pos:]) != adler32(dst) {
		return corrupt("Adler-32 checksum mismatch")
	}
	return nil
}

// corrupt is a way in which a stream is corrupt; errors.Is(err, ErrCorrupt) holds for it.
type corrupt string

func (c corrupt) Error() string        { return "corrupt zlib stream: " + string(c) }
func (c corrupt) Is(target error) bool { return target == ErrCorrupt }

var (
	truncated = corrupt("stream is truncated")
	tooLong   = corrupt("stream is longer than the expected size")
	badCode   = corrupt("invalid Huffman code")
	badSymbol = corrupt("invalid symbol")
	badDist   = corrupt("distance before the start of the data")
)

// bitReader reads src least significant bit first (RFC 1951 3.1.1) through a 64-bit buffer b of nb bits. pos
// runs up to eight bytes past src's end, as zero bytes, so that the last codes read without a check per byte;
// reading more than that is truncation.
type bitReader struct {
	src []byte
	pos int
	b   uint64
	nb  uint
}

// refill fills the buffer to at least 56 bits; false once the stream has been read past its end.
func (r *bitReader) refill() bool {
	if r.pos+8 <= len(r.src) {
		r.b |= binary.LittleEndian.Uint64(r.src[r.pos:]) << r.nb
		r.pos += int(63-r.nb) >> 3
		r.nb |= 56
		return true
	}
	for r.nb <= 56 {
		if r.pos < len(r.src) {
			r.b |= uint64(r.src[r.pos]) << r.nb
		}
		r.pos++
		r.nb += 8
	}
	return r.pos <= len(r.src)+8
}

// bits takes n (at most 56) bits; ok false when the stream is truncated.
func (r *bitReader) bits(n uint) (uint32, bool) {
	if r.nb < n && !r.refill() {
		return 0, false
	}
	v := uint32(r.b & (1<<n - 1))
	r.b >>= n
	r.nb -= n
	return v, true
}

// align drops the bits up to the next byte boundary and gives back the whole bytes the buffer holds, so that
// pos is the next byte of the stream; false when that is past its end.
func (r *bitReader) align() bool {
	r.pos -= int(r.nb >> 3)
	r.b, r.nb = 0, 0
	return r.pos <= len(r.src)
}

// stored copies a stored block (RFC 1951 3.2.4): LEN, its complement NLEN, then LEN bytes.
func (r *bitReader) stored(dst []byte, o int) (int, error) {
	if !r.align() || r.pos+4 > len(r.src) {
		return o, truncated
	}
	n := int(binary.LittleEndian.Uint16(r.src[r.pos:]))
	if n != int(^binary.LittleEndian.Uint16(r.src[r.pos+2:])) {
		return o, corrupt("stored block length does not match its complement")
	}
	r.pos += 4
	if r.pos+n > len(r.src) {
		return o, truncated
	}
	if n > len(dst)-o {
		return o, tooLong
	}
	copy(dst[o:], r.src[r.pos:r.pos+n])
	r.pos += n
	return o + n, nil
}

// buildFixed builds the fixed code's tables (RFC 1951 3.2.6).
func (d *Decoder) buildFixed() {
	var lens [288]uint8
	for i := range lens {
		switch {
		case i < 144:
			lens[i] = 8
		case i < 256:
			lens[i] = 9
		case i < 280:
			lens[i] = 7
		default:
			lens[i] = 8
		}
	}
	lc := countLengths(lens[:])
	d.fixedLit, _, _ = build(nil, lens[:], &lc, litPayload[:], 9, d.sorted[:])
	var dl [32]uint8
	for i := range dl {
		dl[i] = 5
	}
	dc := countLengths(dl[:])
	d.fixDist, _, _ = build(nil, dl[:], &dc, distPayload[:], 5, d.sorted[:])
}

// codeLengthOrder is the order of the code-length code's lengths in a dynamic block header (RFC 1951 3.2.7).
var codeLengthOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// dynamicTables reads a dynamic block's header (RFC 1951 3.2.7) and builds its tables; it returns their
// first-level bits.
func (d *Decoder) dynamicTables(r *bitReader) (uint, uint, error) {
	h, ok := r.bits(14)
	if !ok {
		return 0, 0, truncated
	}
	nlit, ndist, nclen := int(h&31)+257, int(h>>5&31)+1, int(h>>10)+4
	if nlit > 286 || ndist > 30 {
		return 0, 0, corrupt("too many length or distance codes")
	}
	var clens [19]uint8
	for i := range nclen {
		v, ok := r.bits(3)
		if !ok {
			return 0, 0, truncated
		}
		clens[codeLengthOrder[i]] = uint8(v)
	}
	var pb uint
	cc := countLengths(clens[:])
	if d.pre, pb, ok = build(d.pre, clens[:], &cc, symbolPayload[:], 7, d.sorted[:]); !ok {
		return 0, 0, badCode
	}
	mask := uint64(1)<<pb - 1
	lens := d.lens[:nlit+ndist]
	// The lengths are counted as they come, a repeat at once, rather than in a pass over them after.
	var counts [2]lengthCounts // literal/length code, distance code
	for i := 0; i < len(lens); {
		if r.nb < 7+7 && !r.refill() {
			return 0, 0, truncated
		}
		e := d.pre[r.b&mask]
		if e>>8&15 == kindInvalid {
			return 0, 0, badCode
		}
		r.b >>= e & 63
		r.nb -= uint(e & 63)
		sym := e >> 16
		if sym < 16 {
			lens[i] = uint8(sym)
			counts[side(i >= nlit)][sym]++
			i++
			continue
		}
		var rep int
		var val uint8
		switch sym {
		case 16:
			if i == 0 {
				return 0, 0, corrupt("repeat of no code length")
			}
			rep, val = 3+int(r.b&3), lens[i-1]
			r.b >>= 2
			r.nb -= 2
		case 17:
			rep = 3 + int(r.b&7)
			r.b >>= 3
			r.nb -= 3
		default:
			rep = 11 + int(r.b&127)
			r.b >>= 7
			r.nb -= 7
		}
		if i+rep > len(lens) {
			return 0, 0, corrupt("code lengths repeat past their end")
		}
		if i < nlit && i+rep > nlit {
			counts[0][val] += uint16(nlit - i)
			counts[1][val] += uint16(i + rep - nlit)
		} else {
			counts[side(i >= nlit)][val] += uint16(rep)
		}
		for j := range lens[i : i+rep] {
			lens[i+j] = val
		}
		i += rep
	}
	var lb, db uint
	if d.lit, lb, ok = build(d.lit, lens[:nlit], &counts[0], litPayload[:], maxLitPrimary, d.sorted[:]); !ok {
		return 0, 0, badCode
	}
	if d.dist, db, ok = build(d.dist, lens[nlit:], &counts[1], distPayload[:], maxDistPrimary, d.sorted[:]); !ok {
		return 0, 0, badCode
	}
	return lb, db, nil
}

// side is 1 for a distance code's length, 0 for a literal/length code's (a setcc, not a branch).
func side(dist bool) int {
	if dist {
		return 1
	}
	return 0
}

// huffman decodes a block's symbols (RFC 1951 3.2.5) into dst from o, up to its end-of-block code, with the
// tables lt and dt of first-level bits lb and db. The reader's state is kept in locals for the loop.
func (r *bitReader) huffman(dst []byte, o int, lt, dt []uint32, lb, db uint) (int, error) {
	src, pos, b, nb := r.src, r.pos, r.b, r.nb
	lmask, dmask := uint64(1)<<lb-1, uint64(1)<<db-1
	var err error
loop:
	for {
		// One refill covers a whole length and distance: 15+5 bits, then 15+13.
		if nb < 48 {
			if pos+8 <= len(src) {
				b |= binary.LittleEndian.Uint64(src[pos:]) << nb
				pos += int(63-nb) >> 3
				nb |= 56
			} else {
				r.pos, r.b, r.nb = pos, b, nb
				ok := r.refill()
				pos, b, nb = r.pos, r.b, r.nb
				if !ok {
					err = truncated
					break loop
				}
			}
		}
		e := lt[b&lmask]
		if e&(15<<8) == kindLiteral<<8 {
			// Most symbols of text are literals: one test, then the next symbol.
			b >>= e & 63
			nb -= uint(e & 63)
			if o >= len(dst) {
				err = tooLong
				break loop
			}
			dst[o] = byte(e >> 16)
			o++
			continue
		}
		if e>>8&15 == kindSub {
			b >>= e & 63
			nb -= uint(e & 63)
			e = lt[e>>16+uint32(b&(1<<(e>>12&15)-1))]
		}
		b >>= e & 63
		nb -= uint(e & 63)
		switch e >> 8 & 15 {
		case kindLiteral:
			if o >= len(dst) {
				err = tooLong
				break loop
			}
			dst[o] = byte(e >> 16)
			o++
			continue
		case kindLength:
		case kindEnd:
			r.pos, r.b, r.nb = pos, b, nb
			return o, nil
		default:
			err = badSymbol
			break loop
		}
		extra := e >> 12 & 15
		length := int(e>>16) + int(b&(1<<extra-1))
		b >>= extra
		nb -= uint(extra)
		e = dt[b&dmask]
		if e>>8&15 == kindSub {
			b >>= e & 63
			nb -= uint(e & 63)
			e = dt[e>>16+uint32(b&(1<<(e>>12&15)-1))]
		}
		if e>>8&15 != kindDistance {
			err = badSymbol
			break loop
		}
		b >>= e & 63
		nb -= uint(e & 63)
		extra = e >> 12 & 15
		dist := int(e>>16) + int(b&(1<<extra-1))
		b >>= extra
		nb -= uint(extra)
		if dist > o {
			err = badDist
			break loop
		}
		if length > len(dst)-o {
			err = tooLong
			break loop
		}
		from := o - dist
		if dist >= 8 && length <= 16 && o+16 <= len(dst) {
			// A short match, the most common in text: two 8-byte moves rather than a call to memmove. With
			// dist >= 8 each reads only bytes already final, and what is written past the match is
			// overwritten by what comes next.
			binary.LittleEndian.PutUint64(dst[o:], binary.LittleEndian.Uint64(dst[from:]))
			binary.LittleEndian.PutUint64(dst[o+8:], binary.LittleEndian.Uint64(dst[from+8:]))
		} else if dist >= length {
			copy(dst[o:o+length], dst[from:from+length])
		} else {
			for i := range length {
				dst[o+i] = dst[from+i]
			}
		}
		o += length
	}
	r.pos, r.b, r.nb = pos, b, nb
	return o, err
}
