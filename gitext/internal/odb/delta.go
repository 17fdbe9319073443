package odb

// applyDelta applies a pack delta (gitformat-pack, "Deltified representation") to base: the base's size and the
// result's size as little-endian base-128 numbers, then instructions that copy a range of the base (high bit set;
// the low seven bits say which offset and size bytes follow, a size of 0 meaning 0x10000) or insert the next 1 to
// 127 bytes of the delta. ok is false for a delta that does not fit its base, overruns its stated size or stops
// short of it, as git's patch_delta refuses them.
//
// go-git's packfile.PatchDelta does the same into a bytes.Buffer that it grows from at most 64 KiB, so a large
// blob was copied several times over: that growth was over a quarter of what a first run allocated on Kafka (the
// tied commits' trees and blobs, read for their patch ids). Here the result is allocated once at its stated size,
// which is bounded like an entry's.
func applyDelta(base, delta []byte) ([]byte, bool) {
	baseSize, delta, ok := deltaSize(delta)
	if !ok || baseSize != uint64(len(base)) {
		return nil, false
	}
	size, delta, ok := deltaSize(delta)
	if !ok || size > maxEntrySize {
		return nil, false
	}
	out := make([]byte, 0, size)
	for len(delta) > 0 {
		cmd := delta[0]
		delta = delta[1:]
		switch {
		case cmd&0x80 != 0:
			var off, n uint64
			for bit := range 4 {
				if cmd&(1<<bit) != 0 {
					if len(delta) == 0 {
						return nil, false
					}
					off |= uint64(delta[0]) << (8 * bit)
					delta = delta[1:]
				}
			}
			for bit := range 3 {
				if cmd&(0x10<<bit) != 0 {
					if len(delta) == 0 {
						return nil, false
					}
					n |= uint64(delta[0]) << (8 * bit)
					delta = delta[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > uint64(len(base)) || n > size-uint64(len(out)) {
				return nil, false
			}
			out = append(out, base[off:off+n]...)
		case cmd != 0:
			n := uint64(cmd)
			if n > uint64(len(delta)) || n > size-uint64(len(out)) {
				return nil, false
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, false // reserved
		}
	}
	return out, uint64(len(out)) == size
}

// deltaSize reads one of a delta's two leading sizes.
func deltaSize(b []byte) (uint64, []byte, bool) {
	var x uint64
	for i, shift := 0, uint(0); i < len(b) && shift < 64; i, shift = i+1, shift+7 {
		x |= uint64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return x, b[i+1:], true
		}
	}
	return 0, nil, false
}
