package gitext

import (
	"bytes"
	"container/heap"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// rangeSlop is how many more commits the range walk reads once every commit left to read is excluded, in case a
// commit's date is older than one of its parents' (clock skew): git's revision.c walks the same five (SLOP).
const rangeSlop = 5

// rangeCommit is a commit the range walk has met.
type rangeCommit struct {
	hash     plumbing.Hash
	when     int64
	parents  []plumbing.Hash
	read     bool // its parents are known
	excluded bool // reachable from a stop commit
	queued   bool
}

// rangeQueue holds commits to read, newest committer date first (then the greatest sha, for a fixed order).
type rangeQueue []*rangeCommit

func (q rangeQueue) Len() int { return len(q) }
func (q rangeQueue) Less(i, j int) bool {
	if q[i].when != q[j].when {
		return q[i].when > q[j].when
	}
	return bytes.Compare(q[i].hash[:], q[j].hash[:]) > 0
}
func (q rangeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *rangeQueue) Push(x any)   { *q = append(*q, x.(*rangeCommit)) }
func (q *rangeQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// rangeCommits returns the commits reachable from tip and from none of stops, parents before children (the
// oldest committer date first among commits ready at once, then the smallest sha), reading only the commits
// near the range rather than all of history: what `git rev-list stop..tip` does. It walks newest first from both
// sides, marking what the stops reach as excluded (and everything below an excluded commit), and stops once
// every commit left to read is excluded and older than every commit found, plus rangeSlop more. Dates make the
// stop rule exact for histories whose commits are never older than their parents; with clock skew a commit the
// stops reach can be listed too (as git's walk can), never one of the range left out: exclusion only ever comes
// from what the stops reach.
func (r *Repo) rangeCommits(tip Hash, stops []Hash) ([]Hash, error) {
	pr, err := r.packs()
	if err != nil {
		return nil, err
	}
	seen := map[plumbing.Hash]*rangeCommit{}
	q := &rangeQueue{}
	live := 0 // queued commits not excluded: the walk goes on while there are any
	meet := func(h plumbing.Hash, from string) (*rangeCommit, error) {
		if c := seen[h]; c != nil {
			return c, nil
		}
		hdr, err := r.readHeader(pr, h, from)
		if err != nil {
			return nil, err
		}
		c := &rangeCommit{hash: h, when: hdr.When, parents: hdr.Parents}
		if r.shallow[h] {
			c.parents = nil // its parents are beyond the shallow boundary
		}
		seen[h] = c
		return c, nil
	}
	push := func(c *rangeCommit) {
		if !c.queued && !c.read {
			c.queued = true
			heap.Push(q, c)
			if !c.excluded {
				live++
			}
		}
	}
	// exclude marks c and, through commits already read, everything below it.
	exclude := func(c *rangeCommit) error {
		stack := []*rangeCommit{c}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if c.excluded {
				continue
			}
			c.excluded = true
			if c.queued {
				live--
			}
			if !c.read {
				push(c)
				continue
			}
			for _, p := range c.parents {
				pc, err := meet(p, c.hash.String())
				if err != nil {
					return err
				}
				stack = append(stack, pc)
			}
		}
		return nil
	}
	t, err := meet(tip, "the range's tip")
	if err != nil {
		return nil, err
	}
	push(t)
	for _, s := range stops {
		sc, err := meet(s, "the range's start")
		if err != nil {
			return nil, err
		}
		if err := exclude(sc); err != nil {
			return nil, err
		}
	}
	oldestIn := int64(1<<63 - 1) // the oldest commit found in the range so far
	slop := rangeSlop
	for q.Len() > 0 {
		if live == 0 && (*q)[0].when < oldestIn {
			if slop == 0 {
				break
			}
			slop--
		} else {
			slop = rangeSlop
		}
		c := heap.Pop(q).(*rangeCommit)
		c.queued, c.read = false, true
		if !c.excluded {
			live--
			oldestIn = min(oldestIn, c.when)
		}
		for _, p := range c.parents {
			pc, err := meet(p, c.hash.String())
			if err != nil {
				return nil, err
			}
			if c.excluded {
				if err := exclude(pc); err != nil {
					return nil, err
				}
			} else {
				push(pc)
			}
		}
	}
	var in []*rangeCommit
	for _, c := range seen {
		if c.read && !c.excluded {
			in = append(in, c)
		}
	}
	return topoOrder(in), nil
}

// topoOrder orders commits parents before children, the oldest committer date first among commits ready at
// once, then the smallest sha (Graph.TopoOrder's rule); parents outside the set are ignored.
func topoOrder(cs []*rangeCommit) []Hash {
	idx := make(map[plumbing.Hash]int, len(cs))
	for i, c := range cs {
		idx[c.hash] = i
	}
	pending := make([]int, len(cs))
	children := make([][]int, len(cs))
	for i, c := range cs {
		for _, p := range c.parents {
			if j, ok := idx[p]; ok {
				pending[i]++
				children[j] = append(children[j], i)
			}
		}
	}
	h := &nodeHeap{less: func(a, b int) bool {
		if cs[a].when != cs[b].when {
			return cs[a].when < cs[b].when
		}
		return bytes.Compare(cs[a].hash[:], cs[b].hash[:]) < 0
	}}
	for i := range cs {
		if pending[i] == 0 {
			h.items = append(h.items, i)
		}
	}
	heap.Init(h)
	out := make([]plumbing.Hash, 0, len(cs))
	for h.Len() > 0 {
		i := heap.Pop(h).(int)
		out = append(out, cs[i].hash)
		for _, ch := range children[i] {
			if pending[ch]--; pending[ch] == 0 {
				heap.Push(h, ch)
			}
		}
	}
	return slices.Clip(out)
}
