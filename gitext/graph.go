package gitext

import (
	"bytes"
	"container/heap"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Graph is the commit graph of the walked history, held in memory so that every question after the walk
// (reachability from a branch, from a merge's side, ordering) is answered without reading objects again.
type Graph struct {
	Nodes []Node
	index map[plumbing.Hash]int
}

// Node is one commit of the graph. Parents index Graph.Nodes; parents beyond a shallow boundary are absent.
type Node struct {
	Hash    plumbing.Hash
	Parents []int
	When    int64 // committer time, seconds since the epoch
	// FirstParentMissing is set when the commit's parents lie beyond a shallow clone's boundary.
	Shallow bool
}

// ErrMissingObject is wrapped by walk errors for objects the repository lacks.
var ErrMissingObject = errors.New("missing object")

// Walk reads every commit reachable from tips once, calls visit for each, and returns the graph. A commit
// listed in the shallow file is read but its parents are not followed.
func (r *Repo) Walk(tips []Tip, visit func(c *object.Commit) error) (*Graph, error) {
	g := &Graph{index: map[plumbing.Hash]int{}}
	type pending struct {
		hash plumbing.Hash
		from string // who pointed at it, for the error message
	}
	stack := make([]pending, 0, len(tips))
	for i := len(tips) - 1; i >= 0; i-- {
		stack = append(stack, pending{tips[i].Commit, "ref " + tips[i].Name.String()})
	}
	parentHashes := map[int][]plumbing.Hash{}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, seen := g.index[p.hash]; seen {
			continue
		}
		c, err := r.readCommit(p.hash, p.from)
		if err != nil {
			return nil, err
		}
		i := len(g.Nodes)
		g.index[p.hash] = i
		n := Node{Hash: p.hash, When: c.Committer.When.Unix(), Shallow: r.Shallow[p.hash]}
		g.Nodes = append(g.Nodes, n)
		if visit != nil {
			if err := visit(c); err != nil {
				return nil, err
			}
		}
		if n.Shallow {
			continue
		}
		parentHashes[i] = c.ParentHashes
		for j := len(c.ParentHashes) - 1; j >= 0; j-- {
			stack = append(stack, pending{c.ParentHashes[j], "parent of commit " + p.hash.String()})
		}
	}
	for i, ps := range parentHashes {
		for _, h := range ps {
			g.Nodes[i].Parents = append(g.Nodes[i].Parents, g.index[h])
		}
	}
	return g, nil
}

func (r *Repo) readCommit(h plumbing.Hash, from string) (*object.Commit, error) {
	obj, err := r.Storer.EncodedObject(plumbing.CommitObject, h)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, fmt.Errorf("commit %s (%s): %w: the repository is incomplete; run `git fsck` or fetch it again",
				h, from, ErrMissingObject)
		}
		return nil, fmt.Errorf("read commit %s (%s): %w", h, from, err)
	}
	c, err := object.DecodeCommit(r.Storer, obj)
	if err != nil {
		return nil, fmt.Errorf("commit %s (%s) is corrupt: %w; run `git fsck`", h, from, err)
	}
	return c, nil
}

// Index returns the node index of h.
func (g *Graph) Index(h plumbing.Hash) (int, bool) {
	i, ok := g.index[h]
	return i, ok
}

// Reachable marks every commit reachable from the starts, not going into commits already marked in stop.
func (g *Graph) Reachable(starts []int, stop []bool) []bool {
	seen := make([]bool, len(g.Nodes))
	stack := append([]int(nil), starts...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[i] || (stop != nil && stop[i]) {
			continue
		}
		seen[i] = true
		stack = append(stack, g.Nodes[i].Parents...)
	}
	return seen
}

// TopoOrder lists every node, parents before children; among commits that are ready at once, the oldest
// committer date first, then the smallest sha, so the order is total and the same on every machine.
func (g *Graph) TopoOrder() []int {
	pendingParents := make([]int, len(g.Nodes))
	children := make([][]int, len(g.Nodes))
	for i, n := range g.Nodes {
		pendingParents[i] = len(n.Parents)
		for _, p := range n.Parents {
			children[p] = append(children[p], i)
		}
	}
	h := &readyHeap{g: g}
	for i := range g.Nodes {
		if pendingParents[i] == 0 {
			h.items = append(h.items, i)
		}
	}
	heap.Init(h)
	order := make([]int, 0, len(g.Nodes))
	for h.Len() > 0 {
		i := heap.Pop(h).(int)
		order = append(order, i)
		for _, c := range children[i] {
			pendingParents[c]--
			if pendingParents[c] == 0 {
				heap.Push(h, c)
			}
		}
	}
	return order
}

type readyHeap struct {
	g     *Graph
	items []int
}

func (h *readyHeap) Len() int { return len(h.items) }
func (h *readyHeap) Less(a, b int) bool {
	na, nb := h.g.Nodes[h.items[a]], h.g.Nodes[h.items[b]]
	if na.When != nb.When {
		return na.When < nb.When
	}
	return bytes.Compare(na.Hash[:], nb.Hash[:]) < 0
}
func (h *readyHeap) Swap(a, b int) { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *readyHeap) Push(x any)    { h.items = append(h.items, x.(int)) }
func (h *readyHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
