package inflate

import "encoding/binary"

// adler32 is the Adler-32 checksum of p (RFC 1950 8.2), eight bytes a step: over eight bytes b0…b7, s1 grows by
// their sum and s2 by 8·s1 plus 8·b0 + 7·b1 + … + 1·b7, and both sums are taken four 16-bit lanes at once with a
// multiply (no lane exceeds 8·4·255, so none carries into the next). hash/adler32 takes a byte a step, and its
// chain of two dependent additions per byte was a twentieth of inflating a commit.
func adler32(p []byte) uint32 {
	const (
		mod  = 65521
		nmax = 5552 // the most bytes before s2 could overflow 32 bits (zlib's NMAX), a multiple of 8
		ones = 0x0001_0001_0001_0001
	)
	s1, s2 := uint32(1), uint32(0)
	for len(p) > 0 {
		n := min(len(p), nmax)
		q := p[:n]
		p = p[n:]
		for len(q) >= 8 {
			v := binary.LittleEndian.Uint64(q)
			even, odd := v&0x00ff_00ff_00ff_00ff, v>>8&0x00ff_00ff_00ff_00ff // bytes 0, 2, 4, 6 and 1, 3, 5, 7
			s2 += 8*s1 + uint32((even*(2|4<<16|6<<32|8<<48))>>48) + uint32((odd*(1|3<<16|5<<32|7<<48))>>48)
			s1 += uint32(((even + odd) * ones) >> 48)
			q = q[8:]
		}
		for _, b := range q {
			s1 += uint32(b)
			s2 += s1
		}
		s1 %= mod
		s2 %= mod
	}
	return s2<<16 | s1
}
