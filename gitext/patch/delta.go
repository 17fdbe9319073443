package patch

// git's binary delta (diff-delta.c create_delta_index and create_delta), ported line for line: `git apply`
// accepts any valid delta, but a part is only git's own when the copy and insert instructions are the ones
// git's Rabin-window matcher picks. The format is pack-format(5)'s delta: source and target sizes as
// little-endian base-128 numbers, then copy (0x80 | offset/size bytes present) and insert (1..127 literal
// bytes) instructions.

const (
	hashLimit   = 64
	rabinShift  = 23
	rabinWindow = 16
)

type deltaEntry struct {
	ptr int // offset in the source just after the window the value hashes
	val uint32
}

type deltaIndex struct {
	src     []byte
	mask    uint32
	buckets [][]deltaEntry
}

func newDeltaIndex(buf []byte) *deltaIndex {
	if len(buf) == 0 {
		return nil
	}
	entries := uint32((len(buf) - 1) / rabinWindow)
	if uint64(len(buf)) >= 0xffffffff {
		entries = 0xfffffffe / rabinWindow
	}
	hsize := entries / 4
	i := uint32(4)
	for ; (uint32(1) << i) < hsize; i++ {
	}
	hsize = 1 << i
	hmask := hsize - 1

	// Linked buckets, newest first, as the C code builds them while scanning the source backwards.
	type node struct {
		e    deltaEntry
		next int
	}
	nodes := make([]node, 0, entries)
	heads := make([]int, hsize)
	for k := range heads {
		heads[k] = -1
	}
	counts := make([]uint32, hsize)
	prev := ^uint32(0)
	for data := int(entries)*rabinWindow - rabinWindow; data >= 0; data -= rabinWindow {
		var val uint32
		for k := 1; k <= rabinWindow; k++ {
			val = ((val << 8) | uint32(buf[data+k])) ^ rabinT[val>>rabinShift]
		}
		if val == prev {
			// Keep the lowest of consecutive identical blocks.
			nodes[len(nodes)-1].e.ptr = data + rabinWindow
			continue
		}
		prev = val
		b := val & hmask
		nodes = append(nodes, node{e: deltaEntry{ptr: data + rabinWindow, val: val}, next: heads[b]})
		heads[b] = len(nodes) - 1
		counts[b]++
	}
	// Thin out overfull buckets evenly to HASH_LIMIT entries.
	for b := uint32(0); b < hsize; b++ {
		if counts[b] <= hashLimit {
			continue
		}
		e := heads[b]
		acc := 0
		for e >= 0 {
			acc += int(counts[b]) - hashLimit
			if acc > 0 {
				keep := e
				for acc > 0 {
					e = nodes[e].next
					acc -= hashLimit
				}
				nodes[keep].next = nodes[e].next
			}
			e = nodes[e].next
		}
	}
	idx := &deltaIndex{src: buf, mask: hmask, buckets: make([][]deltaEntry, hsize)}
	for b := uint32(0); b < hsize; b++ {
		for e := heads[b]; e >= 0; e = nodes[e].next {
			idx.buckets[b] = append(idx.buckets[b], nodes[e].e)
		}
	}
	return idx
}

// createDelta returns the delta from the indexed source to trg, or nil when it would exceed maxSize bytes
// (0: no limit).
func (idx *deltaIndex) createDelta(trg []byte, maxSize int) []byte {
	if len(trg) == 0 {
		return nil
	}
	out := make([]byte, 0, 8192)
	putSize := func(l int) {
		for l >= 0x80 {
			out = append(out, byte(l)|0x80)
			l >>= 7
		}
		out = append(out, byte(l))
	}
	putSize(len(idx.src))
	putSize(len(trg))
	ref := idx.src
	refTop := len(ref)
	top := len(trg)

	out = append(out, 0) // the first insert's count slot
	data := 0
	var val uint32
	i := 0
	for ; i < rabinWindow && data < top; i, data = i+1, data+1 {
		out = append(out, trg[data])
		val = ((val << 8) | uint32(trg[data])) ^ rabinT[val>>rabinShift]
	}
	inscnt := i
	moff, msize := 0, 0
	for data < top {
		if msize < 4096 {
			val ^= rabinU[trg[data-rabinWindow]]
			val = ((val << 8) | uint32(trg[data])) ^ rabinT[val>>rabinShift]
			for _, e := range idx.buckets[val&idx.mask] {
				if e.val != val {
					continue
				}
				refSize := refTop - e.ptr
				if refSize > top-data {
					refSize = top - data
				}
				if refSize <= msize {
					break
				}
				r, s := e.ptr, data
				for refSize > 0 && trg[s] == ref[r] {
					refSize--
					s++
					r++
				}
				if msize < r-e.ptr {
					msize = r - e.ptr
					moff = e.ptr
					if msize >= 4096 {
						break
					}
				}
			}
		}
		if msize < 4 {
			if inscnt == 0 {
				out = append(out, 0)
			}
			out = append(out, trg[data])
			data++
			inscnt++
			if inscnt == 0x7f {
				out[len(out)-inscnt-1] = byte(inscnt)
				inscnt = 0
			}
			msize = 0
			continue
		}
		if inscnt != 0 {
			// Extend the match backwards over bytes just inserted.
			for moff > 0 && ref[moff-1] == trg[data-1] {
				msize++
				moff--
				data--
				out = out[:len(out)-1]
				inscnt--
				if inscnt != 0 {
					continue
				}
				out = out[:len(out)-1] // the count slot goes too
				break
			}
			if inscnt > 0 {
				out[len(out)-inscnt-1] = byte(inscnt)
			}
			inscnt = 0
		}
		left := 0
		if msize >= 0x10000 {
			left = msize - 0x10000
		}
		msize -= left
		op := len(out)
		out = append(out, 0)
		cmd := byte(0x80)
		if moff&0xff != 0 {
			out, cmd = append(out, byte(moff)), cmd|0x01
		}
		if moff&0xff00 != 0 {
			out, cmd = append(out, byte(moff>>8)), cmd|0x02
		}
		if moff&0xff0000 != 0 {
			out, cmd = append(out, byte(moff>>16)), cmd|0x04
		}
		if uint64(moff)&0xff000000 != 0 {
			out, cmd = append(out, byte(moff>>24)), cmd|0x08
		}
		if msize&0xff != 0 {
			out, cmd = append(out, byte(msize)), cmd|0x10
		}
		if msize&0xff00 != 0 {
			out, cmd = append(out, byte(msize>>8)), cmd|0x20
		}
		out[op] = cmd
		data += msize
		moff += msize
		msize = left
		if uint64(moff) > 0xffffffff {
			msize = 0
		}
		if msize < 4096 {
			val = 0
			for j := -rabinWindow; j < 0; j++ {
				val = ((val << 8) | uint32(trg[data+j])) ^ rabinT[val>>rabinShift]
			}
		}
	}
	if inscnt != 0 {
		out[len(out)-inscnt-1] = byte(inscnt)
	}
	if maxSize > 0 && len(out) > maxSize {
		return nil
	}
	return out
}
