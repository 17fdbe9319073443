// Package handoff holds bytes one step made for a later step to take once: the raw commits a walk read for
// ReadCommit (gitext), the part diffs made for patch ids for the series (gitext/patch). It is bounded, so a large
// history costs the later step time (it makes the bytes again), never memory, and safe for concurrent use.
package handoff

import (
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Bytes maps object ids to bytes kept for one later Take. The zero value keeps nothing; use New.
type Bytes struct {
	mu   sync.Mutex
	m    map[plumbing.Hash][]byte
	size int
	max  int
}

// New returns an empty Bytes that keeps at most max bytes in all.
func New(max int) *Bytes { return &Bytes{m: map[plumbing.Hash][]byte{}, max: max} }

// Put keeps b (not a copy) for h, unless h is kept already or b would take the total past the bound.
func (k *Bytes) Put(h plumbing.Hash, b []byte) { k.put(h, b, false) }

// PutCopy is Put for bytes the caller goes on using: a copy is kept, made only when it will be.
func (k *Bytes) PutCopy(h plumbing.Hash, b []byte) { k.put(h, b, true) }

func (k *Bytes) put(h plumbing.Hash, b []byte, copied bool) {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.m[h]; ok || k.m == nil || k.size+len(b) > k.max {
		return
	}
	if copied {
		b = append([]byte(nil), b...)
	}
	k.m[h] = b
	k.size += len(b)
}

// Take returns and forgets what is kept for h.
func (k *Bytes) Take(h plumbing.Hash) ([]byte, bool) {
	if k == nil {
		return nil, false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	b, ok := k.m[h]
	if ok {
		delete(k.m, h)
		k.size -= len(b)
	}
	return b, ok
}
