package gitext

import (
	"bytes"
	"container/heap"
	"sort"

	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
)

// MergeBase returns the best common ancestors of commits a and b, newest first, as `git merge-base --all` gives
// them (none when they share no history). It is git's walk (commit-reach.c): paint down from both sides, newest
// committer date first, and keep the commits both sides reach that no other such commit reaches; then drop any
// that another of them reaches (criss-cross merges leave several). Parents and dates come from the commit-graph
// where it holds a commit, else from the object store; a shallow clone's boundary ends the walk as it does git's.
func (r *Repo) MergeBase(a, b Hash) ([]Hash, error) {
	w, err := r.newAncestry()
	if err != nil {
		return nil, err
	}
	ca, err := w.commit(a, "the first commit")
	if err != nil {
		return nil, err
	}
	cb, err := w.commit(b, "the second commit")
	if err != nil {
		return nil, err
	}
	if a == b {
		return []Hash{a}, nil
	}
	flags, bases, err := w.paint(ca, []*ancestor{cb})
	if err != nil {
		return nil, err
	}
	var best []*ancestor
	for _, c := range bases {
		if flags[c]&stale == 0 {
			best = append(best, c)
		}
	}
	if best, err = w.removeRedundant(best); err != nil {
		return nil, err
	}
	// git lists them by commit date, newest first; the id orders commits of one date the same on every run.
	sort.Slice(best, func(i, j int) bool {
		if best[i].when != best[j].when {
			return best[i].when > best[j].when
		}
		return bytes.Compare(best[i].hash[:], best[j].hash[:]) < 0
	})
	out := make([]Hash, len(best))
	for i, c := range best {
		out[i] = c.hash
	}
	return out, nil
}

// The marks of one paint: reached from the one commit, from the others, and below a commit both reach.
const (
	fromOne uint8 = 1 << iota
	fromOthers
	stale
)

// ancestry reads commits for merge-base walks, each once: its parents and committer date.
type ancestry struct {
	r     *Repo
	pr    *odb.Packs
	cg    *odb.CommitGraph
	nodes map[Hash]*ancestor
}

// ancestor is a commit met by the walk: the range walk's commit, whose marks this walk keeps apart.
type ancestor = rangeCommit

func (r *Repo) newAncestry() (*ancestry, error) {
	pr, err := r.packs()
	if err != nil {
		return nil, err
	}
	return &ancestry{r: r, pr: pr, cg: r.graphFile(), nodes: map[Hash]*ancestor{}}, nil
}

// commit reads h; from says who pointed at it, for the error message.
func (w *ancestry) commit(h Hash, from string) (*ancestor, error) {
	if c := w.nodes[h]; c != nil {
		return c, nil
	}
	c := &ancestor{hash: h}
	if pos, ok := w.graphPos(h); ok {
		ps, when, ok := w.cg.Commit(pos, nil)
		if !ok {
			return nil, corruptGraphEntry(pos)
		}
		c.when = when
		for _, p := range ps {
			c.parents = append(c.parents, w.cg.Hash(p))
		}
	} else {
		hdr, err := w.r.readHeader(w.pr, h, from)
		if err != nil {
			return nil, err
		}
		c.when, c.parents = hdr.When, hdr.Parents
	}
	if w.r.shallow[h] {
		c.parents = nil // beyond the shallow boundary
	}
	w.nodes[h] = c
	return c, nil
}

func (w *ancestry) graphPos(h Hash) (int, bool) {
	if w.cg == nil {
		return 0, false
	}
	return w.cg.Find(h)
}

// paint is git's paint_down_to_common: it marks what one reaches and what others reach, newest first, until
// every commit still queued is below one both reach. It returns the marks and the commits both reach, in the
// order met; those not marked stale are the best common ancestors but for the ones another of them reaches.
// A commit is queued again whenever it gains a mark, so the marks are exact whatever the dates say; the dates
// only decide how soon the walk ends.
func (w *ancestry) paint(one *ancestor, others []*ancestor) (map[*ancestor]uint8, []*ancestor, error) {
	flags := map[*ancestor]uint8{}
	q := &rangeQueue{}
	push := func(c *ancestor, f uint8) {
		flags[c] |= f
		heap.Push(q, c)
	}
	push(one, fromOne)
	for _, c := range others {
		push(c, fromOthers)
	}
	var both []*ancestor
	seenBoth := map[*ancestor]bool{}
	for hasLive(*q, flags) {
		c := heap.Pop(q).(*ancestor)
		f := flags[c] & (fromOne | fromOthers | stale)
		if f == fromOne|fromOthers {
			if !seenBoth[c] {
				seenBoth[c] = true
				both = append(both, c)
			}
			f |= stale
		}
		for _, ph := range c.parents {
			p, err := w.commit(ph, c.hash.String())
			if err != nil {
				return nil, nil, err
			}
			if flags[p]&f == f {
				continue
			}
			push(p, f)
		}
	}
	return flags, both, nil
}

// removeRedundant drops the candidates that another candidate reaches (git's remove_redundant): each is painted
// against the rest, and what either side reaches of the other goes.
func (w *ancestry) removeRedundant(cands []*ancestor) ([]*ancestor, error) {
	if len(cands) < 2 {
		return cands, nil
	}
	gone := make([]bool, len(cands))
	for i, c := range cands {
		if gone[i] {
			continue
		}
		var others []*ancestor
		var at []int
		for j, o := range cands {
			if j != i && !gone[j] {
				others, at = append(others, o), append(at, j)
			}
		}
		flags, _, err := w.paint(c, others)
		if err != nil {
			return nil, err
		}
		if flags[c]&fromOthers != 0 {
			gone[i] = true
		}
		for k, o := range others {
			if flags[o]&fromOne != 0 {
				gone[at[k]] = true
			}
		}
	}
	var out []*ancestor
	for i, c := range cands {
		if !gone[i] {
			out = append(out, c)
		}
	}
	return out, nil
}

// hasLive says whether a queued commit is not yet below one both sides reach (git's queue_has_nonstale). A
// commit may be queued more than once, as in git's prio_queue.
func hasLive(q rangeQueue, flags map[*ancestor]uint8) bool {
	for _, c := range q {
		if flags[c]&stale == 0 {
			return true
		}
	}
	return false
}
