package gitext

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
	"github.com/git-bernstein/git-bernstein/internal/parallel"
)

// ReadWalkCommits is ReadWalkCommit for many nodes of g at once, read on every core and returned in the order
// asked: a query answered from the ticket index reads only its candidates, and inflating them is most of its
// work. The first error in that order is returned (a missing commit wraps ErrMissingObject).
//
// The raw commits are also kept (up to maxKeptRaw bytes) for ReadCommit, which takes them: `commits` judges its
// candidates from these and then reads the tied ones whole, and each should be inflated once.
func (r *Repo) ReadWalkCommits(g *Graph, nodes []int, from string) ([]*WalkCommit, error) {
	pr, err := r.packs()
	if err != nil {
		return nil, err
	}
	out := make([]*WalkCommit, len(nodes))
	errs := make([]error, len(nodes))
	var failed atomic.Bool
	workers := min(runtime.GOMAXPROCS(0), 1+len(nodes)/32) // a few commits are not worth a goroutine
	parallel.Each(len(nodes), workers, func(_, k int) {
		if failed.Load() {
			return
		}
		i := nodes[k]
		h := g.nodes[i].Hash
		raw, err := r.rawCommit(pr, h, from)
		if err != nil {
			errs[k] = err
			failed.Store(true)
			return
		}
		hdr, err := odb.ParseCommitHeader(raw)
		if err != nil {
			errs[k] = fmt.Errorf("commit %s (%s) is corrupt: %w; run `git fsck`", h, from, err)
			failed.Store(true)
			return
		}
		r.kept.Put(h, raw)
		out[k] = &WalkCommit{Node: i, Hash: h, Parents: hdr.Parents, Message: string(hdr.Message)}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// maxKeptRaw bounds the raw commits ReadWalkCommits keeps for ReadCommit: beyond it they are read again.
const maxKeptRaw = 16 << 20
