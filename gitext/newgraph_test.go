package gitext_test

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"sort"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// NewGraph checks that byHash lists every node once, in hash order; a graph large enough for the check to run
// on every core must be refused for a pair out of order anywhere, across the parts' edges too.
func TestNewGraphRefusesHashesOutOfOrder(t *testing.T) {
	t.Parallel()
	const n = 70_000
	nodes := make([]gitext.Node, n)
	for i := range nodes {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(i))
		nodes[i].Hash = gitext.Hash(sha1.Sum(b[:]))
	}
	sorted := make([]uint32, n)
	for i := range sorted {
		sorted[i] = uint32(i)
	}
	sort.Slice(sorted, func(a, b int) bool { return bytes.Compare(nodes[sorted[a]].Hash[:], nodes[sorted[b]].Hash[:]) < 0 })
	if _, ok := gitext.NewGraph(nodes, sorted); !ok {
		t.Fatal("a graph with byHash in order was refused")
	}
	for _, at := range []int{1, n/2 - 1, n / 2, n/2 + 1, n - 2} {
		swapped := append([]uint32(nil), sorted...)
		swapped[at], swapped[at+1] = swapped[at+1], swapped[at]
		if _, ok := gitext.NewGraph(nodes, swapped); ok {
			t.Errorf("byHash with entries %d and %d swapped was taken", at, at+1)
		}
	}
}
