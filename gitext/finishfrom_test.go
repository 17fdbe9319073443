package gitext_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// A walk that extends a graph (WalkFrom: the hook's walk from the ticket index to a merge's new commits) must
// rank and number generations exactly as a walk of everything does, also when the new commits are older than
// the base's newest (a branch made long ago and merged now), share a base commit's date (the sha decides), or
// start a root of their own; and a second walk from the same base must leave the first's graph as it was.
func TestWalkFromRanksAsAFreshWalk(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	var b strings.Builder
	const t0 = 1700000000
	commit := func(ref string, mark int, when int64, from, merge int) {
		fmt.Fprintf(&b, "commit %s\nmark :%d\ncommitter C <c@example.com> %d +0000\ndata 2\nm\n", ref, mark, when)
		if from > 0 {
			fmt.Fprintf(&b, "from :%d\n", from)
		}
		if merge > 0 {
			fmt.Fprintf(&b, "merge :%d\n", merge)
		}
		content := fmt.Sprint(mark)
		fmt.Fprintf(&b, "M 100644 inline f%d.txt\ndata %d\n%s\n", mark%7, len(content), content)
	}
	for i := 1; i <= 40; i++ {
		commit("refs/heads/base", i, t0+int64(i)*100, i-1, 0)
	}
	for k := 0; k < 12; k++ { // from commit 10, dated among main's 11 to 17, some on the same second
		when := t0 + 1050 + int64(k)*50
		if k%4 == 0 {
			when = t0 + int64(11+k/2)*100
		}
		from := 100 + k
		if k == 0 {
			from = 10
		}
		commit("refs/heads/side", 101+k, when, from, 0)
	}
	for k := 0; k < 3; k++ { // a root of its own, older than most of base
		from := 200 + k
		if k == 0 {
			from = 0
		}
		commit("refs/heads/orphan", 201+k, t0+500+int64(k), from, 0)
	}
	commit("refs/heads/main", 41, t0+5000, 40, 112)
	r.FastImport(b.String())

	repo, all := openWithTips(t, r)
	var baseTips []gitext.Tip
	for _, tip := range all {
		if tip.Name == "refs/heads/base" {
			baseTips = append(baseTips, tip)
		}
	}
	if len(baseTips) != 1 || len(all) < 4 {
		t.Fatalf("tips %v", all)
	}
	none := func(*gitext.WalkCommit) error { return nil }
	base, err := repo.Walk(baseTips, none)
	if err != nil {
		t.Fatal(err)
	}
	ext, err := repo.WalkFrom(base, all, none)
	if err != nil {
		t.Fatal(err)
	}
	// A second walk from the same base (here to the orphan root alone) must not write over the first's new
	// commits, which the first may keep in base's spare capacity; base keeps what it had.
	baseLen := base.Len()
	var orphan []gitext.Tip
	for _, tip := range all {
		if tip.Name == "refs/heads/orphan" || tip.Name == "refs/heads/base" {
			orphan = append(orphan, tip)
		}
	}
	ext2, err := repo.WalkFrom(base, orphan, none)
	if err != nil {
		t.Fatal(err)
	}
	if base.Len() != baseLen || ext2.Len() != baseLen+3 {
		t.Fatalf("base has %d commits after two walks from it (had %d), the second walk %d", base.Len(), baseLen,
			ext2.Len())
	}
	fresh, allAgain := openWithTips(t, r)
	full, err := fresh.Walk(allAgain, none)
	if err != nil {
		t.Fatal(err)
	}
	if ext.Len() != full.Len() || full.Len() != 40+12+3+1 {
		t.Fatalf("extended walk has %d commits, a fresh one %d", ext.Len(), full.Len())
	}
	for i := range full.Len() {
		h := full.Node(i).Hash
		j, ok := ext.Index(h)
		if !ok {
			t.Fatalf("commit %s missing from the extended walk", h)
		}
		if got, want := nodeLine(ext, j), nodeLine(full, i); got != want {
			t.Errorf("node %d of the extended walk is %s, want %s", j, got, want)
		}
		if ext.Rank(j) != full.Rank(i) || ext.Gen(j) != full.Gen(i) {
			t.Errorf("commit %s: rank %d gen %d extended, rank %d gen %d fresh", h, ext.Rank(j), ext.Gen(j),
				full.Rank(i), full.Gen(i))
		}
	}
}

// nodeLine is a node's commit and its parents' commits.
func nodeLine(g *gitext.Graph, i int) string {
	n := g.Node(i)
	line := n.Hash.String()
	for _, p := range n.Parents {
		line += " " + g.Node(p).Hash.String()
	}
	return line
}
