package gitext_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// ContainedBy carries bit sets of the smaller side (targets up from the roots, or tips down from the tips),
// several words a node, a pass per 512: each way, and across words and passes, each answer must be the tips
// whose history (Reachable) holds the target. The history (1300 commits, topic branches merged and left open,
// tags) is made by git fast-import.
func TestContainedByAgreesWithReachable(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	r := gittest.New(t)
	var s strings.Builder
	mark, tick := 0, 0
	commit := func(ref string, from, merge int) int {
		mark++
		tick++
		fmt.Fprintf(&s, "commit %s\nmark :%d\ncommitter C <c@example.com> %d +0000\ndata 2\nc\n", ref, mark, 1700000000+tick)
		if from > 0 {
			fmt.Fprintf(&s, "from :%d\n", from)
		}
		if merge > 0 {
			fmt.Fprintf(&s, "merge :%d\n", merge)
		}
		fmt.Fprintf(&s, "M 100644 inline f\ndata 3\n%d\n\n", mark%10)
		return mark
	}
	main := commit("refs/heads/main", 0, 0)
	for i := 0; i < 330; i++ {
		topic := fmt.Sprintf("refs/heads/topic/%d", i)
		tip := main
		for k := 0; k <= i%3; k++ {
			tip = commit(topic, tip, 0)
		}
		main = commit("refs/heads/main", main, 0)
		if i%4 != 3 {
			main = commit("refs/heads/main", main, tip)
		}
		if i%20 == 0 {
			fmt.Fprintf(&s, "reset refs/tags/v%d\nfrom :%d\n\n", i, main)
		}
	}
	r.FastImport(s.String())
	repo, tips := openWithTips(t, r)
	g, err := repo.Walk(tips, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := g.Len()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var refNodes []int
	for _, tip := range tips {
		i, _ := g.Index(tip.Commit)
		refNodes = append(refNodes, i)
	}
	if n < 1100 || len(refNodes) < 200 {
		t.Fatalf("%d commits, %d refs: too few to cross the passes", n, len(refNodes))
	}
	reach := map[int][]bool{}
	for _, c := range []struct {
		name          string
		targets, tips []int
	}{
		{"every commit, the refs", all, refNodes},
		{"the refs, every commit", refNodes, all},
		{"two commits, every commit", []int{all[3], all[n-2]}, all},
		{"every commit, every commit", all, all},
		{"refs, refs", refNodes, refNodes},
		{"late half, early half", all[n/2:], all[:n/2]},
		{"70 recent commits, the refs", all[n-70:], refNodes},
	} {
		got := g.ContainedBy(c.targets, c.tips)
		for k, target := range c.targets {
			var want []int
			for ti, tip := range c.tips {
				if reach[tip] == nil {
					reach[tip] = g.Reachable([]int{tip}, nil)
				}
				if reach[tip][target] {
					want = append(want, ti)
				}
			}
			if !reflect.DeepEqual(got[k], want) {
				t.Fatalf("%s: target %d contained by %v, want %v", c.name, target, got[k], want)
			}
		}
	}
}
