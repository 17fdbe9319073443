package handoff

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestBytesKeepsWithinItsBoundAndHandsOverOnce(t *testing.T) {
	t.Parallel()
	a, b, c := plumbing.NewHash("aa"), plumbing.NewHash("bb"), plumbing.NewHash("cc")
	k := New(10)
	k.Put(a, []byte("123456"))
	k.Put(a, []byte("x"))     // kept already: the first stays
	k.Put(b, []byte("12345")) // past the bound: not kept
	k.Put(c, []byte("1234"))  // fits
	if got, ok := k.Take(a); !ok || string(got) != "123456" {
		t.Errorf("Take(a) = %q, %v", got, ok)
	}
	if _, ok := k.Take(a); ok {
		t.Error("a was handed over twice")
	}
	if _, ok := k.Take(b); ok {
		t.Error("b was kept past the bound")
	}
	k.Put(b, []byte("12345")) // a's bytes are free again
	if got, ok := k.Take(b); !ok || string(got) != "12345" {
		t.Errorf("Take(b) after a was taken = %q, %v", got, ok)
	}
	var none *Bytes
	none.Put(a, []byte("1"))
	if _, ok := none.Take(a); ok {
		t.Error("a nil Bytes handed something over")
	}
}

// PutCopy keeps a copy, so the caller may reuse its buffer, and keeps nothing past the bound.
func TestPutCopyKeepsACopy(t *testing.T) {
	t.Parallel()
	a, b := plumbing.NewHash("aa"), plumbing.NewHash("bb")
	k := New(8)
	buf := []byte("123456")
	k.PutCopy(a, buf)
	copy(buf, "xxxxxx") // the caller's next diff in the same buffer
	k.PutCopy(b, buf)   // past the bound: not kept
	if got, ok := k.Take(a); !ok || string(got) != "123456" {
		t.Errorf("Take(a) = %q, %v; want the bytes as they were put", got, ok)
	}
	if _, ok := k.Take(b); ok {
		t.Error("b was kept past the bound")
	}
}
