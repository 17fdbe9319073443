package gitext

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
)

// A repository as `git clone` leaves it has no commit-graph, so a walk learns a commit's parents only by
// inflating it, one commit after another: one core does all the work, as in `git log`. bulkWalk uses every core
// instead. It lists the commit entries of each pack from its index (an entry's type is in its first byte),
// inflates them in pack order on all cores, and keeps those reachable from the tips as they arrive. Packs
// written by git (clone, fetch, gc) hold commits first and in recency order, newest first, so a commit's
// children have nearly always arrived before it: it is known reachable at once, visited, and its message
// dropped. Commits no pack entry gives (loose objects, deltified commits, other index versions) are read one at
// a time before and after.

// maxBulkBytes bounds the inflated size of the commits a bulk walk reads; beyond it the walk reads commit by
// commit, as before, so memory stays bounded whatever the pack's order.
const maxBulkBytes = 1 << 30

// bulkSlot is what the bulk walk knows of one commit.
type bulkSlot struct {
	c       *WalkCommit // parsed and not yet visited
	marked  bool        // reachable from a tip
	visited bool
	ref     string        // the tip's ref, or
	child   plumbing.Hash // the commit whose parent it is: who pointed at it, for an error when read alone
}

// bulkWalk is WalkWith for a fresh walk of a repository without a commit-graph, or of any repository when every
// message is wanted; ok is false when it does not apply (no version 2 pack, or commits too large in all to hold), and the caller walks commit by commit.
func (r *Repo) bulkWalk(pr *odb.Packs, tips []Tip, prep func(*WalkCommit) any, visit func(*WalkCommit) error) (*Graph, bool, error) {
	entries, total := pr.CommitEntries()
	if len(entries) == 0 || total > maxBulkBytes {
		return nil, false, nil
	}
	g := &Graph{index: make(map[plumbing.Hash]int, len(entries)), Nodes: make([]Node, 0, len(entries))}
	// The slots live in one slice, found by hash through a map of positions: one allocation for them all
	// rather than one a commit. A *bulkSlot is good until the next slot is added, and no caller keeps one
	// longer than that.
	slotAt := make(map[plumbing.Hash]int32, len(entries))
	slab := make([]bulkSlot, 0, len(entries)+len(tips))
	slot := func(h plumbing.Hash) *bulkSlot {
		i, ok := slotAt[h]
		if !ok {
			i = int32(len(slab))
			slab = append(slab, bulkSlot{})
			slotAt[h] = i
		}
		return &slab[i]
	}
	parents := make([][]plumbing.Hash, 0, len(entries)) // by node
	var ready []*WalkCommit                             // marked and parsed: to visit
	var alone []plumbing.Hash                           // marked, and no pack entry read it yet
	mark := func(h plumbing.Hash, ref string, child plumbing.Hash) {
		s := slot(h)
		if s.marked {
			return
		}
		s.marked = true
		if s.c != nil {
			ready = append(ready, s.c)
		} else {
			s.ref, s.child = ref, child
			alone = append(alone, h)
		}
	}
	// drain visits every ready commit and marks its parents, which may make more ready.
	drain := func() error {
		for len(ready) > 0 {
			c := ready[len(ready)-1]
			ready = ready[:len(ready)-1]
			s := slot(c.Hash)
			if s.visited {
				continue
			}
			s.visited, s.c = true, nil
			i := len(g.Nodes)
			if r.Progress != nil && i&4095 == 0 {
				r.Progress(i)
			}
			c.Node = i
			shallow := r.Shallow[c.Hash]
			g.Nodes = append(g.Nodes, Node{Hash: c.Hash, When: c.when, Shallow: shallow})
			g.index[c.Hash] = i
			if shallow {
				parents = append(parents, nil)
			} else {
				parents = append(parents, c.Parents)
			}
			if visit != nil {
				if err := visit(c); err != nil {
					return err
				}
			}
			c.Message, c.Prepared = "", nil
			if !shallow {
				for _, p := range c.Parents {
					mark(p, "", c.Hash)
				}
			}
		}
		return nil
	}
	// readAlone reads the marked commits no pack entry has given, one at a time. Before the bulk read it takes
	// only those in no pack (loose commits on top of a clone): their parents are then known reachable when the
	// pack's commits arrive.
	readAlone := func(all bool) error {
		for len(alone) > 0 {
			var keep []plumbing.Hash
			batch := alone
			alone = nil
			for _, h := range batch {
				s := slot(h)
				if s.visited || s.c != nil {
					continue
				}
				if !all && pr.Contains(h) {
					keep = append(keep, h)
					continue
				}
				from := s.ref
				if from == "" {
					from = "parent of commit " + s.child.String()
				}
				hdr, err := r.readHeader(pr, h, from)
				if err != nil {
					return err
				}
				c := &WalkCommit{Hash: h, Parents: hdr.Parents, Message: string(hdr.Message), when: hdr.When}
				if prep != nil {
					c.Prepared = prep(c)
				}
				s.c = c
				ready = append(ready, c)
				if err := drain(); err != nil {
					return err
				}
			}
			if !all {
				alone = append(alone, keep...)
				if len(alone) == len(keep) {
					return nil
				}
			}
		}
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
	type result struct {
		at      int
		commits []*WalkCommit
		err     error
	}
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan int, workers)
	results := make(chan result, workers)
	done := make(chan struct{})
	defer close(done)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for at := range jobs {
				end := min(at+chunk, len(entries))
				res := result{at: at, commits: make([]*WalkCommit, 0, end-at)}
				for _, e := range entries[at:end] {
					raw, ok := pr.ReadCommitEntry(e)
					if !ok {
						continue // read alone later, with git's error if it is broken
					}
					hdr, err := odb.ParseCommitHeader(raw)
					if err != nil {
						continue
					}
					// raw was just inflated for this commit alone and nothing writes to it: the message is a view
					// of it rather than a copy (the copies were a twentieth of a first run's work).
					msg := unsafe.String(unsafe.SliceData(hdr.Message), len(hdr.Message))
					c := &WalkCommit{Hash: e.Hash, Parents: hdr.Parents, Message: msg, when: hdr.When}
					if prep != nil {
						c.Prepared = prep(c)
					}
					res.commits = append(res.commits, c)
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
		for at := 0; at < len(entries); at += chunk {
			select {
			case jobs <- at:
			case <-done:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	for res := range results {
		for _, c := range res.commits {
			s := slot(c.Hash)
			if s.visited || s.c != nil {
				continue // the same commit in another pack
			}
			s.c = c
			if s.marked {
				ready = append(ready, c)
				if err := drain(); err != nil {
					return nil, true, err
				}
			}
		}
	}
	if err := readAlone(true); err != nil {
		return nil, true, err
	}
	for i, ps := range parents {
		for _, h := range ps {
			j, ok := g.index[h]
			if !ok {
				return nil, true, fmt.Errorf("commit %s: parent %s was not read", g.Nodes[i].Hash, h)
			}
			g.Nodes[i].Parents = append(g.Nodes[i].Parents, j)
		}
	}
	return g, true, nil
}
