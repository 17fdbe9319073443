package gcpace

import (
	"runtime"
	"testing"
	"time"
)

// afterHeapReaches calls its function after the first collection that leaves the limit live, and not before.
func TestAfterHeapReaches(t *testing.T) {
	const limit = 64 << 20
	called := make(chan struct{})
	afterHeapReaches(limit, func() { close(called) })
	runtime.GC()
	runtime.GC()
	select {
	case <-called:
		t.Fatal("called while the live heap was under the limit")
	case <-time.After(100 * time.Millisecond):
	}
	live := make([][]byte, 0, 40)
	for range 40 { // 80 MiB live, in pieces, as a walk's heap is
		b := make([]byte, 2<<20)
		b[0] = 1
		live = append(live, b)
	}
	runtime.GC()
	runtime.GC()
	select {
	case <-called:
	case <-time.After(10 * time.Second):
		t.Fatal("not called after collections that left 80 MiB live")
	}
	runtime.KeepAlive(live)
}
