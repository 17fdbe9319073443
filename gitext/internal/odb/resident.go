package odb

import "sync/atomic"

// A read of a mapped pack faults in the pages it touches, and they stay in the process's resident
// memory until it exits. Linux maps a file page that is already in the page cache with its
// neighbours, a fault_around_bytes block (64 KiB by default) at a time, so each object read from
// the trees and blobs spread over a pack costs a block or more. A first run on Kafka's clone read
// its 9 MB commit region, then the trees and blobs of the ticket's patch ids (delta chains and
// all) over its 216 MB pack: 14 MiB of the pack stayed resident to its peak, where git log holds
// 11. resident counts the blocks of the packs that reads touch for the first time since the last
// drop, and drops the packs' pages (dropPackPages) once they pass residentWindow: a later read of
// the same place faults it in again from the page cache, for about a microsecond a block. On Kafka
// that is 23 drops and 12 MiB off the peak, for no CPU time that shows.
type resident struct {
	fresh  atomic.Int64 // blocks touched for the first time since the last drop
	window int64        // in blocks: residentWindow's, or a test's
	drop   func()
}

// residentWindow is how many bytes of blocks reads may touch between two drops. Four times more
// dropped a tenth as often on Kafka and kept 6 MiB more at the peak; the time either took was lost
// in the noise.
const residentWindow = 2 << 20

// faultBlock is the size of the block a fault maps: Linux's default fault_around_bytes.
const faultBlock = 64 << 10

// blockSet marks the faultBlock blocks of one mapping touched since the last drop: a bit a block,
// so a 216 MB pack needs 420 bytes.
type blockSet []atomic.Uint64

func newBlockSet(size int) blockSet { return make(blockSet, (size/faultBlock+64)/64) }

// touch records that bytes [from, to) of the mapping s marks were read, and drops the pages once
// the blocks touched for the first time pass the window.
func (r *resident) touch(s blockSet, from, to int) {
	if to <= from {
		return
	}
	fresh := int64(0)
	for b := from / faultBlock; b <= (to-1)/faultBlock && b/64 < len(s); b++ {
		w, bit := &s[b/64], uint64(1)<<(b%64)
		if w.Load()&bit == 0 && w.Or(bit)&bit == 0 {
			fresh++
		}
	}
	if fresh > 0 && r.fresh.Add(fresh) > r.window {
		r.drop()
	}
}

// reset forgets the blocks touched so far: their pages were just dropped. A read racing with it
// may leave its block marked or unmarked; the count is a measure, not a promise.
func (s blockSet) reset() {
	for i := range s {
		s[i].Store(0)
	}
}
