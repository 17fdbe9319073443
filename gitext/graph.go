package gitext

import (
	"bytes"
	"container/heap"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
	"github.com/git-bernstein/git-bernstein/internal/parallel"
)

// Graph is the commit graph of the walked history, held in memory so that every question after the walk
// (reachability from a branch, from a merge's side, ordering) is answered without reading objects again.
type Graph struct {
	nodes []Node
	index map[plumbing.Hash]int32
	// base is the graph a walk extended (WalkFrom): it answers Index for the nodes it had, the first
	// len(base.nodes), so that extending a million-commit graph by a merge does not put every id in index again.
	base *Graph
	// lent is set once a walk extending this graph took its nodes' spare capacity (see walkWith).
	lent atomic.Bool
	// byHash lists node numbers sorted by hash; an index-loaded graph uses it instead of the map.
	byHash []uint32
	// cg and posNode (commit-graph position → node number + 1) find the nodes a walk took from the commit-graph.
	cg      *odb.CommitGraph
	posNode []int32
	// rank is each node's position in TopoOrder; gen its generation number (1 for roots, else 1 + the
	// largest of its parents'). Both are filled by finish, which every walk runs before returning its graph.
	rank []uint32
	gen  []uint32
}

// finish computes rank and gen.
func (g *Graph) finish() {
	order := g.TopoOrder()
	g.rank = make([]uint32, len(g.nodes))
	g.gen = make([]uint32, len(g.nodes))
	for pos, i := range order {
		g.rank[i] = uint32(pos)
		gen := uint32(1)
		for _, p := range g.nodes[i].Parents {
			if g.gen[p]+1 > gen {
				gen = g.gen[p] + 1
			}
		}
		g.gen[i] = gen
	}
}

// Exclusive returns the nodes reachable from `from` and not from `stop`. It paints down from both sides in
// generation order, as git's paint_down_to_common does, so it visits only the history between them rather than
// everything reachable from `stop`.
func (g *Graph) Exclusive(from, stop []int) []int {
	const fromStop, fromFrom = 1, 2
	flags := make([]uint8, len(g.nodes))
	queued := make([]bool, len(g.nodes))
	h := &nodeHeap{less: func(a, b int) bool { return g.gen[a] > g.gen[b] }} // highest generation first
	// live counts queued nodes reachable from `from` only: while there are none, nothing more can be found.
	live := 0
	push := func(i int, f uint8) {
		old := flags[i]
		nf := old | f
		if nf == old && queued[i] {
			return
		}
		flags[i] = nf
		if queued[i] {
			if old == fromFrom && nf != fromFrom {
				live--
			}
			return
		}
		if nf == old {
			return // already processed with these flags
		}
		queued[i] = true
		if nf == fromFrom {
			live++
		}
		heap.Push(h, i)
	}
	for _, i := range stop {
		push(i, fromStop)
	}
	for _, i := range from {
		push(i, fromFrom)
	}
	var out []int
	for h.Len() > 0 && live > 0 {
		i := heap.Pop(h).(int)
		queued[i] = false
		f := flags[i]
		if f == fromFrom {
			live--
			out = append(out, i)
		}
		for _, p := range g.nodes[i].Parents {
			push(p, f)
		}
	}
	return out
}

// nodeHeap is a heap of node numbers ordered by less (container/heap).
type nodeHeap struct {
	items []int
	less  func(a, b int) bool
}

func (h *nodeHeap) Len() int           { return len(h.items) }
func (h *nodeHeap) Less(a, b int) bool { return h.less(h.items[a], h.items[b]) }
func (h *nodeHeap) Swap(a, b int)      { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *nodeHeap) Push(x any)         { h.items = append(h.items, x.(int)) }
func (h *nodeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// Len is the number of commits in the graph; node numbers run from 0 to Len()-1.
func (g *Graph) Len() int { return len(g.nodes) }

// Node returns node i. Its Parents slice is the graph's own: read it, do not change it.
func (g *Graph) Node(i int) Node { return g.nodes[i] }

// Rank is node i's position in TopoOrder (parents before children).
func (g *Graph) Rank(i int) uint32 { return g.rank[i] }

// Gen is node i's generation number: 1 for a root, else 1 + the largest of its parents'.
func (g *Graph) Gen(i int) uint32 { return g.gen[i] }

// Node is one commit of the graph. Parents are node numbers (Graph.Node); parents beyond a shallow boundary are absent.
type Node struct {
	Hash Hash
	// Shallow is set when the commit is at a shallow clone's boundary: its parents are not in the clone. It
	// sits in the padding after Hash: a node is 56 bytes, not 64, and there is one for every commit of history.
	Shallow bool
	When    int64 // committer time, seconds since the epoch
	Parents []int
}

// corruptGraphEntry is the error for a commit-graph entry that does not decode, and what to do about it.
func corruptGraphEntry(pos int) error {
	return fmt.Errorf("commit-graph entry %d is corrupt; run `git commit-graph write --reachable`", pos)
}

// ErrMissingObject is wrapped by walk errors for objects the repository lacks.
var ErrMissingObject = errors.New("missing object")

// WalkCommit is what Walk hands its visitor: a commit's id, parents and message.
type WalkCommit struct {
	Node    int // its number in the returned graph
	Hash    Hash
	Parents []Hash
	Message string
	// Prepared is what WalkWith's prep returned for this commit.
	Prepared any

	when int64
}

// Walk reads every commit reachable from tips once and returns the graph. With a visitor, each commit's message
// is read and visit is called once per commit (never concurrently, in no particular order). A walk without
// visitor takes parents and dates from the commit-graph file where git wrote one and reads no commit object the
// graph covers. A fresh walk with a visitor reads every commit object anyway, so it inflates them in pack order
// on every core (bulkWalk) whether or not there is a commit-graph: that beats reading them one by one through
// the pack index. A commit listed in the shallow file is read but its parents are not followed.
func (r *Repo) Walk(tips []Tip, visit func(*WalkCommit) error) (*Graph, error) {
	return r.WalkFrom(nil, tips, visit)
}

// WalkFrom extends base (nil for a fresh walk) with every commit reachable from tips that base lacks; the
// visitor sees only the new commits. base's nodes keep their numbers.
func (r *Repo) WalkFrom(base *Graph, tips []Tip, visit func(*WalkCommit) error) (*Graph, error) {
	return r.WalkWith(base, tips, nil, visit)
}

// WalkWith is WalkFrom with prep, which is called for every commit visit will see, before it, concurrently on
// every core: work that needs one commit alone (finding the words of its message) belongs there, and visit,
// which runs on one goroutine, finds its result in WalkCommit.Prepared. prep must be safe for concurrent use.
// prep may set the commit's Message to "" when visit will not need it, and the bulk walk then keeps no copy of
// it: a walk of all history reads every message but visit looks at few. The message prep sees may be bytes
// that the next commit's bytes overwrite, so what prep returns must not share memory with it.
// The graph comes back ready for every question (its topological ranks and generation numbers computed).
func (r *Repo) WalkWith(base *Graph, tips []Tip, prep func(*WalkCommit) any, visit func(*WalkCommit) error) (*Graph, error) {
	g, err := r.walkWith(base, tips, prep, visit)
	if err != nil {
		return nil, err
	}
	if g.base != nil {
		g.finishFrom(g.base)
	} else {
		g.finish()
	}
	return g, nil
}

func (r *Repo) walkWith(base *Graph, tips []Tip, prep func(*WalkCommit) any, visit func(*WalkCommit) error) (*Graph, error) {
	pr, err := r.packs()
	if err != nil {
		return nil, err
	}
	if base == nil && (r.graphFile() == nil || visit != nil) {
		if g, ok, err := r.bulkWalk(pr, tips, prep, visit); ok || err != nil {
			return g, err
		}
	}
	g := &Graph{index: map[plumbing.Hash]int32{}}
	var cg *odb.CommitGraph
	if base != nil {
		// The first walk that extends base appends its new nodes in base's spare capacity, where base (which
		// keeps its length) does not see them: copying a million nodes was 64 MB and a tenth of the post-merge
		// hook. A later walk from the same base copies, as the two would write over each other. Base's own
		// nodes are never written: parents are set on new nodes only.
		if cap(base.nodes) > len(base.nodes) && base.lent.CompareAndSwap(false, true) {
			g.nodes = base.nodes
		} else {
			g.nodes = append(make([]Node, 0, len(base.nodes)), base.nodes...)
		}
		g.base = base
	} else if cg = r.graphFile(); cg != nil {
		g.cg = cg
		g.posNode = make([]int32, cg.Len())
	}
	type pending struct {
		hash plumbing.Hash
		pos  int    // commit-graph position, or -1
		from string // who pointed at it, for the error message
	}
	stack := make([]pending, 0, len(tips))
	for i := len(tips) - 1; i >= 0; i-- {
		stack = append(stack, pending{tips[i].Commit, -1, "ref " + tips[i].Name.String()})
	}
	var parentHashes map[int][]plumbing.Hash = map[int][]plumbing.Hash{} // nodes read from objects
	parentPos := map[int][]int{}                                         // nodes read from the commit-graph
	var unread []int                                                     // nodes whose message is still to read
	var buf []int
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.pos < 0 {
			if _, seen := g.index[p.hash]; seen {
				continue
			}
			if g.base != nil { // not g.Index: with a commit-graph it would look the id up there twice
				if _, seen := g.base.Index(p.hash); seen {
					continue
				}
			}
			if cg != nil {
				if pos, ok := cg.Find(p.hash); ok {
					p.pos = pos
				}
			}
		}
		i := len(g.nodes)
		if r.progress != nil && i&4095 == 0 && visit == nil {
			r.progress(i)
		}
		if p.pos >= 0 {
			if g.posNode[p.pos] != 0 {
				continue
			}
			ps, when, ok := cg.Commit(p.pos, buf[:0])
			if !ok {
				return nil, corruptGraphEntry(p.pos)
			}
			buf = ps
			g.posNode[p.pos] = int32(i + 1)
			h := cg.Hash(p.pos)
			n := Node{Hash: h, When: when, Shallow: r.shallow[h]}
			g.nodes = append(g.nodes, n)
			if visit != nil {
				unread = append(unread, i)
			}
			if n.Shallow {
				continue
			}
			parentPos[i] = append([]int(nil), ps...)
			for j := len(ps) - 1; j >= 0; j-- {
				stack = append(stack, pending{pos: ps[j]})
			}
			continue
		}
		if r.progress != nil && i&4095 == 0 && visit != nil {
			r.progress(i)
		}
		hdr, err := r.readHeader(pr, p.hash, p.from)
		if err != nil {
			return nil, err
		}
		g.index[p.hash] = int32(i)
		n := Node{Hash: p.hash, When: hdr.When, Shallow: r.shallow[p.hash]}
		g.nodes = append(g.nodes, n)
		if visit != nil {
			c := &WalkCommit{Node: i, Hash: p.hash, Parents: hdr.Parents, Message: string(hdr.Message)}
			if prep != nil {
				c.Prepared = prep(c)
			}
			if err := visit(c); err != nil {
				return nil, err
			}
		}
		if n.Shallow {
			continue
		}
		parentHashes[i] = hdr.Parents
		for j := len(hdr.Parents) - 1; j >= 0; j-- {
			stack = append(stack, pending{hash: hdr.Parents[j], pos: -1, from: "parent of commit " + p.hash.String()})
		}
	}
	for i, ps := range parentHashes {
		for _, h := range ps {
			j, _ := g.Index(h)
			g.nodes[i].Parents = append(g.nodes[i].Parents, j)
		}
	}
	for i, ps := range parentPos {
		for _, pos := range ps {
			g.nodes[i].Parents = append(g.nodes[i].Parents, int(g.posNode[pos])-1)
		}
	}
	if len(unread) > 0 {
		if err := r.readMessages(pr, g, unread, prep, visit); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// readMessages reads the messages of the given nodes with one worker per CPU and calls visit for each, serially.
func (r *Repo) readMessages(pr *odb.Packs, g *Graph, nodes []int, prep func(*WalkCommit) any, visit func(*WalkCommit) error) error {
	type result struct {
		c   *WalkCommit
		err error
	}
	read := func(i int) result {
		h := g.nodes[i].Hash
		hdr, err := r.readHeader(pr, h, "listed in the commit-graph")
		if err != nil {
			return result{err: err}
		}
		c := &WalkCommit{Node: i, Hash: h, Parents: hdr.Parents, Message: string(hdr.Message)}
		if prep != nil {
			c.Prepared = prep(c)
		}
		return result{c: c}
	}
	done := 0
	return parallel.Stream(nodes, 256, read, func(res result) error {
		if res.err != nil {
			return res.err
		}
		if done++; r.progress != nil && done&4095 == 0 {
			r.progress(done)
		}
		return visit(res.c)
	})
}

// rawCommit reads commit h; from says who pointed at it, for the error message.
func (r *Repo) rawCommit(pr *odb.Packs, h Hash, from string) ([]byte, error) {
	raw, err := pr.RawCommit(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, fmt.Errorf("commit %s (%s): %w: the repository is incomplete; run `git fsck` or fetch it again",
			h, from, ErrMissingObject)
	}
	if err != nil {
		return nil, fmt.Errorf("read commit %s (%s): %w", h, from, err)
	}
	return raw, nil
}

// readHeader reads and parses one commit through the fast pack reader.
func (r *Repo) readHeader(pr *odb.Packs, h Hash, from string) (odb.CommitHeader, error) {
	raw, err := r.rawCommit(pr, h, from)
	if err != nil {
		return odb.CommitHeader{}, err
	}
	hdr, err := odb.ParseCommitHeader(raw)
	if err != nil {
		return odb.CommitHeader{}, fmt.Errorf("commit %s (%s) is corrupt: %w; run `git fsck`", h, from, err)
	}
	return hdr, nil
}

// ReadWalkCommit reads commit h's parents and message as a walk would hand them to its visitor, for node number
// node of a graph the caller holds; from says who pointed at it. A commit the repository lacks is an error
// wrapping ErrMissingObject.
func (r *Repo) ReadWalkCommit(node int, h Hash, from string) (*WalkCommit, error) {
	pr, err := r.packs()
	if err != nil {
		return nil, err
	}
	hdr, err := r.readHeader(pr, h, from)
	if err != nil {
		return nil, err
	}
	return &WalkCommit{Node: node, Hash: h, Parents: hdr.Parents, Message: string(hdr.Message)}, nil
}

// NewGraph is a graph kept elsewhere (a cache of a walk): nodes in topological order, each node's parents
// before it, and byHash the node numbers sorted by hash. Its rank is each node's number and gen is computed. It
// returns false when the nodes are not in that order or byHash is not a permutation sorted by hash.
func NewGraph(nodes []Node, byHash []uint32) (*Graph, bool) {
	n := len(nodes)
	if len(byHash) != n {
		return nil, false
	}
	g := &Graph{nodes: nodes, byHash: byHash, rank: make([]uint32, n), gen: make([]uint32, n)}
	for i, nd := range nodes {
		g.rank[i] = uint32(i)
		gen := uint32(1)
		for _, p := range nd.Parents {
			if p < 0 || p >= i {
				return nil, false
			}
			if g.gen[p]+1 > gen {
				gen = g.gen[p] + 1
			}
		}
		g.gen[i] = gen
	}
	seen := make([]bool, n)
	for _, x := range byHash {
		if uint64(x) >= uint64(n) || seen[x] {
			return nil, false
		}
		seen[x] = true
	}
	// The order check reads the nodes in hash order, all over memory (a tenth of the post-merge hook's CPU on a
	// million commits): on every core, each a part of byHash and the pair across its start.
	parts := 1
	if n >= 1<<16 {
		parts = runtime.GOMAXPROCS(0)
	}
	var unsorted atomic.Bool
	parallel.Each(parts, parts, func(_, part int) {
		for k := max(1, part*n/parts); k < (part+1)*n/parts; k++ {
			if bytes.Compare(nodes[byHash[k-1]].Hash[:], nodes[byHash[k]].Hash[:]) >= 0 {
				unsorted.Store(true)
				return
			}
		}
	})
	if unsorted.Load() {
		return nil, false
	}
	return g, true
}

// Index returns the node index of h.
func (g *Graph) Index(h Hash) (int, bool) {
	if g.index != nil {
		if i, ok := g.index[h]; ok {
			return int(i), ok
		}
		if g.base != nil {
			return g.base.Index(h)
		}
		if g.cg != nil {
			if pos, ok := g.cg.Find(h); ok && g.posNode[pos] != 0 {
				return int(g.posNode[pos]) - 1, true
			}
		}
		return 0, false
	}
	lo, hi := 0, len(g.byHash)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(g.nodes[g.byHash[mid]].Hash[:], h[:]); {
		case c == 0:
			return int(g.byHash[mid]), true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// Reachable marks every commit reachable from the starts, not going into commits already marked in stop.
func (g *Graph) Reachable(starts []int, stop []bool) []bool {
	seen := make([]bool, len(g.nodes))
	stack := append([]int(nil), starts...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[i] || (stop != nil && stop[i]) {
			continue
		}
		seen[i] = true
		stack = append(stack, g.nodes[i].Parents...)
	}
	return seen
}

// finishFrom computes rank and gen of a graph that extends base (its first len(base.nodes) nodes are base's,
// ranked and with their generations, and no base node has a parent among the others), as finish would, without
// ordering all of history again: the hook's walk from the ticket index to a merge's few new commits spent a
// fifth of its time in TopoOrder on a million commits. TopoOrder picks, of the commits whose parents are all
// placed, the first by committer date and sha; a base commit's parents are all base commits, so base's commits
// come in base's order, and the next of them is always the first of the base commits ready. Merging base's order
// with the new commits as they become ready, first by the same comparison, gives TopoOrder's order.
func (g *Graph) finishFrom(base *Graph) {
	nb, n := len(base.nodes), len(g.nodes)
	if len(base.rank) != nb || len(base.gen) != nb || n < nb {
		g.finish()
		return
	}
	baseOrder := make([]int, nb)
	for i, r := range base.rank {
		baseOrder[r] = i
	}
	pending := make([]int, n-nb) // by new node: parents not yet placed
	children := map[int][]int{}  // a node's new children
	for i := nb; i < n; i++ {
		pending[i-nb] = len(g.nodes[i].Parents)
		for _, p := range g.nodes[i].Parents {
			children[p] = append(children[p], i)
		}
	}
	less := g.topoLess
	h := &nodeHeap{less: less}
	for i := nb; i < n; i++ {
		if pending[i-nb] == 0 {
			h.items = append(h.items, i)
		}
	}
	heap.Init(h)
	g.rank = make([]uint32, n)
	g.gen = make([]uint32, n)
	copy(g.gen, base.gen)
	pos := uint32(0)
	place := func(i int) {
		g.rank[i] = pos
		pos++
		if i >= nb {
			gen := uint32(1)
			for _, p := range g.nodes[i].Parents {
				gen = max(gen, g.gen[p]+1)
			}
			g.gen[i] = gen
		}
		for _, c := range children[i] {
			if pending[c-nb]--; pending[c-nb] == 0 {
				heap.Push(h, c)
			}
		}
	}
	for _, b := range baseOrder {
		for h.Len() > 0 && less(h.items[0], b) {
			place(heap.Pop(h).(int))
		}
		place(b)
	}
	for h.Len() > 0 {
		place(heap.Pop(h).(int))
	}
}

// topoLess is TopoOrder's choice among ready commits: the oldest committer date first, then the smallest sha.
func (g *Graph) topoLess(a, b int) bool {
	na, nb := &g.nodes[a], &g.nodes[b]
	if na.When != nb.When {
		return na.When < nb.When
	}
	return bytes.Compare(na.Hash[:], nb.Hash[:]) < 0
}

// TopoOrder lists every node, parents before children; among commits that are ready at once, the oldest
// committer date first, then the smallest sha, so the order is total and the same on every machine.
func (g *Graph) TopoOrder() []int {
	pendingParents := make([]int, len(g.nodes))
	children := make([][]int, len(g.nodes))
	for i, n := range g.nodes {
		pendingParents[i] = len(n.Parents)
		for _, p := range n.Parents {
			children[p] = append(children[p], i)
		}
	}
	h := &nodeHeap{less: g.topoLess}
	for i := range g.nodes {
		if pendingParents[i] == 0 {
			h.items = append(h.items, i)
		}
	}
	heap.Init(h)
	order := make([]int, 0, len(g.nodes))
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

// ReadCommit reads one whole commit, for the few commits whose details are reported; from says who pointed at
// it, for the error message. A commit ReadWalkCommits just read is not read again.
func (r *Repo) ReadCommit(h Hash, from string) (*Commit, error) {
	raw, ok := r.kept.Take(h)
	if !ok {
		pr, err := r.packs()
		if err != nil {
			return nil, err
		}
		if raw, err = r.rawCommit(pr, h, from); err != nil {
			return nil, err
		}
	}
	c, err := decodeCommit(h, raw)
	if err != nil {
		return nil, fmt.Errorf("commit %s (%s) is corrupt: %w; run `git fsck`", h, from, err)
	}
	return c, nil
}
