package gitext

import (
	"fmt"
	"runtime"
	"slices"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
	"github.com/git-bernstein/git-bernstein/internal/parallel"
)

// A repository as `git clone` leaves it has no commit-graph, so a walk learns a commit's parents only by
// inflating it, one commit after another: one core does all the work, as in `git log`. bulkWalk uses every core
// instead. It lists the commit entries of each pack's commit region, where git writes them, ahead of the trees
// and blobs (an entry's type is in its first byte; the trees and blobs, most of a real pack, are not touched),
// inflates them in pack order on all cores, and keeps those reachable from the tips as they arrive. Packs
// written by git (clone, fetch, gc) hold commits first and in recency order, newest first, so a commit's
// children have nearly always arrived before it: it is known reachable at once, visited, and its message
// dropped. Commits no listed entry gives (loose objects, deltified commits git wrote among the trees, packs of
// another order or index version) are read by their ids before and after.

// maxBulkBytes bounds the inflated size of the commits a bulk walk reads; beyond it the walk reads commit by
// commit, as before, so memory stays bounded whatever the pack's order.
const maxBulkBytes = 1 << 30

// minAloneSweep is the length from which a bulk walk drops arrived commits from its list of commits marked
// before they arrived, rather than grow it.
const minAloneSweep = 1024

// aloneItem is a commit marked reachable before any pack entry gave it: it may still come in the bulk read, or
// be read alone after it; ref or child say who pointed at it, for the error if it is missing.
type aloneItem struct {
	node  int32
	ref   string
	child plumbing.Hash
}

// bulkWalk is WalkWith for a fresh walk of a repository without a commit-graph, or of any repository when every
// message is wanted; ok is false when it does not apply (no version 2 pack, or commits too large in all to
// hold), and the caller walks commit by commit.
//
// A commit gets its node number when it is first known reachable (a tip, or a parent of a visited commit), so
// one map, at, serves the whole walk and becomes the graph's index: a commit read before anything marked it
// waits in early, and at holds minus one less than its place there. Each commit then costs about two map
// operations (marked as a parent, then arriving) where a map of per-commit slots and a separate index took five.
func (r *Repo) bulkWalk(pr *odb.Packs, tips []Tip, prep func(*WalkCommit) any, visit func(*WalkCommit) error) (*Graph, bool, error) {
	var entries []odb.CommitEntry
	var total uint64
	// sized is how many commits the walk makes room for at once. The per-node slices are all history long, so
	// outgrowing them copies them all (append grows a slice that size by a quarter), and the old copies are
	// garbage that the collector lets the heap grow by twice over (a long walk runs at GOGC=200): a walk reads
	// commits no entry lists (Kafka 34 beyond its 20,833 entries; commons-lang's clone 622 deltified commits
	// beyond its 9,593 without a commit-graph), so room is made for them.
	var sized int
	if cg := r.graphFile(); cg != nil {
		// The commit-graph says which objects are commits: only their entries are read, not the whole pack.
		entries, total = pr.CommitEntriesOf(cg.SortedIDs())
		sized = max(len(entries), cg.Len()) + len(entries)/64 + 256
	} else {
		entries, total = pr.CommitEntries()
		sized = len(entries) + len(entries)/8 + 256
	}
	if len(entries) == 0 || total > maxBulkBytes {
		return nil, false, nil
	}
	g := &Graph{nodes: make([]Node, 0, sized)}
	at := make(map[plumbing.Hash]int32, sized)
	var early []*WalkCommit                  // read before marked
	waiting := make([]*WalkCommit, 0, sized) // by node: read, marked and not yet visited
	visited := make([]bool, 0, sized)        // by node
	var ready []int32                        // nodes read and marked: to visit
	var alone []aloneItem                    // marked before any pack entry gave them
	// A commit's parents get their node numbers when it is visited (mark), so its Node.Parents is set then,
	// in an array shared by many nodes: holding each commit's parent ids until the walk ends took 48 bytes a
	// commit more (a slice header, and the ids' own array), a tenth of the heap live at the end of Kafka's.
	// When the array is full another is started: the lists already in it stay where they are.
	var edges []int
	sweepFrom := minAloneSweep
	if r.aloneSweep > 0 {
		sweepFrom = r.aloneSweep
	}
	seen := 0 // visited nodes, for progress
	// mark gives h its node number, if it has none yet, and returns it.
	mark := func(h plumbing.Hash, ref string, child plumbing.Hash) int32 {
		v, known := at[h]
		if known && v >= 0 {
			return v
		}
		n := int32(len(g.nodes))
		g.nodes = append(g.nodes, Node{Hash: h})
		waiting, visited = append(waiting, nil), append(visited, false)
		at[h] = n
		if known {
			waiting[n], early[-v-1] = early[-v-1], nil
			ready = append(ready, n)
		} else {
			if len(alone) == cap(alone) && len(alone) >= sweepFrom {
				// Nearly every commit is marked (by its child) before its entry arrives, so the list would
				// hold all history (48 bytes a commit, twice that while it grows); the ones that have
				// arrived since are dropped before it grows, and it holds about the walk's frontier.
				alone = slices.DeleteFunc(alone, func(a aloneItem) bool {
					return visited[a.node] || waiting[a.node] != nil
				})
			}
			alone = append(alone, aloneItem{n, ref, child})
		}
		return n
	}
	// arrive takes a commit read from a pack entry.
	arrive := func(c *WalkCommit) {
		v, known := at[c.Hash]
		switch {
		case !known:
			early = append(early, c)
			at[c.Hash] = -int32(len(early))
		case v >= 0 && !visited[v] && waiting[v] == nil:
			waiting[v] = c
			ready = append(ready, v)
		} // else the same commit again, from another pack
	}
	// drain visits every ready commit and marks its parents, which may make more ready.
	drain := func() error {
		for len(ready) > 0 {
			n := ready[len(ready)-1]
			ready = ready[:len(ready)-1]
			if visited[n] {
				continue
			}
			c := waiting[n]
			visited[n], waiting[n] = true, nil
			if r.progress != nil && seen&4095 == 0 {
				r.progress(seen)
			}
			seen++
			c.Node = int(n)
			shallow := r.shallow[c.Hash]
			g.nodes[n].When, g.nodes[n].Shallow = c.when, shallow
			if visit != nil {
				if err := visit(c); err != nil {
					return err
				}
			}
			c.Message, c.Prepared = "", nil
			if !shallow && len(c.Parents) > 0 {
				if cap(edges)-len(edges) < len(c.Parents) {
					edges = make([]int, 0, max(len(c.Parents), sized+sized/8))
				}
				start := len(edges)
				for _, p := range c.Parents {
					edges = append(edges, int(mark(p, "", c.Hash)))
				}
				g.nodes[n].Parents = edges[start:len(edges):len(edges)]
			}
		}
		return nil
	}
	// readAlone reads the marked commits no pack entry has given by their ids, on every core, a round at a time
	// (a round's commits name the parents the next one reads). Before the bulk read it takes only those in no
	// pack (loose commits on top of a clone): their parents are then known reachable when the pack's commits
	// arrive. After it, what is left: commits outside the listed commit regions, such as the deltified commits
	// git writes among the trees (87 of Kafka's 20,873, 622 of commons-lang's 10,215), each a delta to resolve.
	readAlone := func(all bool) error {
		// Before the bulk read, the commits in a pack are set aside for it, each looked up once: looking them up
		// again every round, as a chain of loose commits is read, was 7,800 index lookups on Kafka's clone (24
		// rounds of its 329 tips). They are kept newest round first, in each round's order, as before.
		var packed []aloneItem
		for len(alone) > 0 {
			var keep, todo []aloneItem
			batch := alone
			alone = nil
			for _, a := range batch {
				if visited[a.node] || waiting[a.node] != nil {
					continue
				}
				if !all && pr.Contains(g.nodes[a.node].Hash) {
					keep = append(keep, a)
					continue
				}
				todo = append(todo, a)
			}
			read := make([]*WalkCommit, len(todo))
			errs := make([]error, len(todo))
			parallel.Each(len(todo), 0, func(_, k int) {
				a := todo[k]
				h := g.nodes[a.node].Hash
				from := a.ref
				if from == "" {
					from = "parent of commit " + a.child.String()
				}
				hdr, err := r.readHeader(pr, h, from)
				if err != nil {
					errs[k] = err
					return
				}
				c := &WalkCommit{Hash: h, Parents: hdr.Parents, Message: string(hdr.Message), when: hdr.When}
				if prep != nil {
					c.Prepared = prep(c)
				}
				read[k] = c
			})
			for k, a := range todo {
				if errs[k] != nil {
					return errs[k]
				}
				waiting[a.node] = read[k]
				ready = append(ready, a.node)
				if err := drain(); err != nil {
					return err
				}
			}
			if !all {
				packed = append(keep, packed...)
			}
		}
		alone = packed
		return nil
	}
	for _, t := range tips {
		mark(t.Commit, "ref "+t.Name.String(), plumbing.ZeroHash)
	}
	if err := readAlone(false); err != nil {
		return nil, true, err
	}

	// Inflate the pack's commits on every core, in chunks, in pack order.
	const chunk = 256
	starts := make([]int, 0, len(entries)/chunk+1)
	for at := 0; at < len(entries); at += chunk {
		starts = append(starts, at)
	}
	// A chunk's commits are inflated one after another into one buffer, and their messages copied side by side
	// into arrays of an eighth of a chunk's commits (so at most that much of a chunk's is left unused): a new
	// array for each commit, headers and all, was two fifths of what a first run allocated while it walked
	// (Kafka's commits are 17.6 MB), and what the collector finds live as it runs includes what is allocated
	// meanwhile, which sets how far the heap grows next.
	slabSize := int(total/uint64(len(entries))) * chunk / 8
	inflate := func(at int) []*WalkCommit {
		end := min(at+chunk, len(entries))
		commits := make([]*WalkCommit, 0, end-at)
		var buf, slab []byte
		for _, e := range entries[at:end] {
			raw, ok := pr.ReadCommitEntryInto(e, buf)
			if !ok {
				continue // read alone later, with git's error if it is broken
			}
			if cap(raw) > cap(buf) {
				buf = raw[:0]
			}
			hdr, err := odb.ParseCommitHeader(raw)
			if err != nil {
				continue
			}
			// prep sees the message in buf, which the next commit overwrites, and may drop it (WalkWith).
			c := &WalkCommit{Hash: e.Hash, Parents: hdr.Parents, when: hdr.When}
			c.Message = unsafe.String(unsafe.SliceData(hdr.Message), len(hdr.Message))
			if prep != nil {
				c.Prepared = prep(c)
			}
			if msg := c.Message; msg != "" {
				if cap(slab)-len(slab) < len(msg) {
					slab = make([]byte, 0, max(slabSize, len(msg)))
				}
				// Bytes appended to slab are never written again: the message is a view of them rather
				// than a string of its own (the copies were a twentieth of a first run's work).
				start := len(slab)
				slab = append(slab, msg...)
				c.Message = unsafe.String(unsafe.SliceData(slab[start:]), len(msg))
			}
			commits = append(commits, c)
		}
		return commits
	}
	err := parallel.Stream(starts, runtime.GOMAXPROCS(0), inflate, func(commits []*WalkCommit) error {
		for _, c := range commits {
			arrive(c)
			if err := drain(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	if err := readAlone(true); err != nil {
		return nil, true, err
	}
	// Commits read but never reached (unreachable, or reached only beyond a shallow boundary) leave the index.
	for _, c := range early {
		if c != nil {
			delete(at, c.Hash)
		}
	}
	// Every node is a commit marked reachable, so read: a parent that was not is a bug of the walk.
	for i, v := range visited {
		if !v {
			return nil, true, fmt.Errorf("commit %s was marked reachable but not read", g.nodes[i].Hash)
		}
	}
	g.index = at
	// The walk has read all it reads of the packs: what comes after (a first run's patch ids) reads a few trees
	// and blobs, not the commit region and the index ids faulted in here, which would stay resident to the end.
	pr.DropPages()
	return g, true, nil
}
