package odb

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// applyDelta must give what go-git's PatchDelta gives for deltas go-git makes (copies, inserts, copies of
// 0x10000 bytes and more), and refuse what it refuses: a delta for another base, one cut short, one that
// overruns its stated size.
func TestApplyDeltaMatchesGoGit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	text := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc \n"[rng.IntN(5)]
		}
		return b
	}
	for i := range 200 {
		base := text(1 + rng.IntN(1<<(4+i%14)))
		target := append([]byte(nil), base...)
		for range 1 + rng.IntN(8) {
			at := rng.IntN(len(target) + 1)
			cut := min(len(target)-at, rng.IntN(64))
			target = append(target[:at], append(text(rng.IntN(200)), target[at+cut:]...)...)
		}
		delta := packfile.DiffDelta(base, target)
		got, ok := applyDelta(base, delta)
		want, err := packfile.PatchDelta(base, delta)
		if !ok || err != nil || !bytes.Equal(got, want) || !bytes.Equal(got, target) {
			t.Fatalf("case %d: applyDelta ok=%v, go-git err=%v, equal=%v", i, ok, err, bytes.Equal(got, want))
		}
		for _, bad := range [][]byte{delta[:len(delta)-1], append(append([]byte(nil), delta...), 1, 'x')} {
			if _, ok := applyDelta(base, bad); ok {
				t.Fatalf("case %d: a bad delta was applied", i)
			}
		}
		if _, ok := applyDelta(append(base, 'x'), delta); ok {
			t.Fatalf("case %d: a delta was applied to another base", i)
		}
	}
}
