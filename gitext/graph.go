package gitext

import (
	"bytes"
	"container/heap"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	commitgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"

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

// WalkCommit is what Walk hands its visitor: a commit's id, parents and message.
type WalkCommit struct {
	Hash    plumbing.Hash
	Parents []plumbing.Hash
	Message string
}

// Walk reads every commit reachable from tips once and returns the graph. With a visitor, each commit's message
// is read and visit is called once per commit (never concurrently, in no particular order). Parents and dates
// come from the commit-graph file where git wrote one, so a walk without visitor reads no commit object the
// graph covers, and messages are then read by two workers at once. A commit listed in the shallow file is read
// but its parents are not followed.
func (r *Repo) Walk(tips []Tip, visit func(*WalkCommit) error) (*Graph, error) {
	pr, err := r.packs()
	if err != nil {
		return nil, err
	}
	cg := r.openCommitGraph()
	if cg != nil {
		defer cg.Close()
	}
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
	var unread []int // nodes whose message the commit-graph did not give us
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, seen := g.index[p.hash]; seen {
			continue
		}
		var parents []plumbing.Hash
		var when int64
		fromGraph := false
		if cg != nil {
			if i, err := cg.GetIndexByHash(p.hash); err == nil {
				if cd, err := cg.GetCommitDataByIndex(i); err == nil {
					parents, when, fromGraph = cd.ParentHashes, cd.When.Unix(), true
				}
			}
		}
		var msg []byte
		if !fromGraph {
			hdr, err := r.readHeader(pr, p.hash, p.from)
			if err != nil {
				return nil, err
			}
			parents, when, msg = hdr.Parents, hdr.When, hdr.Message
		}
		i := len(g.Nodes)
		g.index[p.hash] = i
		n := Node{Hash: p.hash, When: when, Shallow: r.Shallow[p.hash]}
		g.Nodes = append(g.Nodes, n)
		if visit != nil {
			if fromGraph {
				unread = append(unread, i)
			} else if err := visit(&WalkCommit{Hash: p.hash, Parents: parents, Message: string(msg)}); err != nil {
				return nil, err
			}
		}
		if n.Shallow {
			continue
		}
		parentHashes[i] = parents
		for j := len(parents) - 1; j >= 0; j-- {
			stack = append(stack, pending{parents[j], "parent of commit " + p.hash.String()})
		}
	}
	for i, ps := range parentHashes {
		for _, h := range ps {
			g.Nodes[i].Parents = append(g.Nodes[i].Parents, g.index[h])
		}
	}
	if len(unread) > 0 {
		if err := r.readMessages(pr, g, unread, parentHashes, visit); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// readMessages reads the messages of the given nodes with one worker per CPU and calls visit for each, serially.
func (r *Repo) readMessages(pr *packReader, g *Graph, nodes []int, parents map[int][]plumbing.Hash, visit func(*WalkCommit) error) error {
	workers := runtime.GOMAXPROCS(0)
	type result struct {
		c   *WalkCommit
		err error
	}
	jobs := make(chan int, 256)
	results := make(chan result, 256)
	done := make(chan struct{})
	defer close(done)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				h := g.Nodes[i].Hash
				hdr, err := r.readHeader(pr, h, "listed in the commit-graph")
				var res result
				if err != nil {
					res.err = err
				} else {
					res.c = &WalkCommit{Hash: h, Parents: parents[i], Message: string(hdr.Message)}
				}
				select {
				case results <- res:
				case <-done:
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, i := range nodes {
			select {
			case jobs <- i:
			case <-done:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	for res := range results {
		if res.err != nil {
			return res.err
		}
		if err := visit(res.c); err != nil {
			return err
		}
	}
	return nil
}

// readHeader reads and parses one commit through the fast pack reader.
func (r *Repo) readHeader(pr *packReader, h plumbing.Hash, from string) (commitHeader, error) {
	raw, err := pr.rawCommit(h)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return commitHeader{}, fmt.Errorf("commit %s (%s): %w: the repository is incomplete; run `git fsck` or fetch it again",
				h, from, ErrMissingObject)
		}
		return commitHeader{}, fmt.Errorf("read commit %s (%s): %w", h, from, err)
	}
	hdr, err := parseCommitHeader(raw)
	if err != nil {
		return commitHeader{}, fmt.Errorf("commit %s (%s) is corrupt: %w; run `git fsck`", h, from, err)
	}
	return hdr, nil
}

// openCommitGraph opens the commit-graph git maintains (a single file or a chain) from mapped memory: go-git's
// file reader issues a read call per lookup, which cost more than the lookups. nil when there is none or it
// cannot be read; commits are then read from their objects.
func (r *Repo) openCommitGraph() commitgraph.Index {
	info := filepath.Join(r.CommonDir, "objects", "info")
	if idx, err := openGraphFile(filepath.Join(info, "commit-graph"), nil); err == nil {
		return idx
	}
	chainPath := filepath.Join(info, "commit-graphs", "commit-graph-chain")
	f, err := os.Open(chainPath)
	if err != nil {
		return nil
	}
	chain, err := commitgraph.OpenChainFile(f)
	f.Close()
	if err != nil {
		return nil
	}
	var idx commitgraph.Index
	for _, h := range chain {
		next, err := openGraphFile(filepath.Join(info, "commit-graphs", "graph-"+h+".graph"), idx)
		if err != nil {
			if idx != nil {
				idx.Close()
			}
			return nil
		}
		idx = next
	}
	return idx
}

func openGraphFile(path string, parent commitgraph.Index) (commitgraph.Index, error) {
	data, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	rd := &mappedReader{Reader: bytes.NewReader(data), data: data}
	idx, err := commitgraph.OpenFileIndexWithParent(rd, parent)
	if err != nil {
		rd.Close()
		return nil, err
	}
	return idx, nil
}

// mappedReader serves a mapped file to go-git's commit-graph reader and unmaps it on Close.
type mappedReader struct {
	*bytes.Reader
	data []byte
}

func (m *mappedReader) Close() error {
	unmapFile(m.data)
	m.data = nil
	return nil
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

// readCommit reads one whole commit, for the few commits whose details are reported.
func (r *Repo) readCommit(h plumbing.Hash, from string) (*object.Commit, error) {
	pr, err := r.packs()
	if err != nil {
		return nil, err
	}
	raw, err := pr.rawCommit(h)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, fmt.Errorf("commit %s (%s): %w: the repository is incomplete; run `git fsck` or fetch it again",
				h, from, ErrMissingObject)
		}
		return nil, fmt.Errorf("read commit %s (%s): %w", h, from, err)
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(plumbing.CommitObject)
	obj.Write(raw)
	c, err := object.DecodeCommit(r.Storer, obj)
	if err != nil {
		return nil, fmt.Errorf("commit %s (%s) is corrupt: %w; run `git fsck`", h, from, err)
	}
	return c, nil
}
