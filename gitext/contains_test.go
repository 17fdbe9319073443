package gitext_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// ContainedBy carries bit sets of the smaller side (targets up from the roots, or tips down from the tips):
// either way, and across 64-wide chunks, each answer must be the tips whose history (Reachable) holds the target.
func TestContainedByAgreesWithReachable(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Initial commit", map[string]string{"a.txt": "a\n"})
	for i := 0; i < 16; i++ {
		branch := fmt.Sprintf("topic/%d", i)
		r.Git("checkout", "-q", "-b", branch)
		for k := 0; k <= i%5; k++ {
			r.Commit(fmt.Sprintf("Work %d.%d", i, k), map[string]string{fmt.Sprintf("f%d.txt", i): fmt.Sprint(k)})
		}
		r.Git("checkout", "-q", "main")
		r.Commit(fmt.Sprintf("Main %d", i), map[string]string{"main.txt": fmt.Sprint(i)})
		if i%3 != 2 {
			r.Git("merge", "-q", "--no-ff", "-m", "Merge "+branch, branch)
		}
	}
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tips, err := repo.HistoryTips()
	if err != nil {
		t.Fatal(err)
	}
	g, err := repo.Walk(tips, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.Finish()
	n := len(g.Nodes)
	if n <= 64 {
		t.Fatalf("%d commits: too few to cross a 64-wide chunk", n)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var refNodes []int
	for _, tip := range tips {
		i, _ := g.Index(tip.Commit)
		refNodes = append(refNodes, i)
	}
	for _, c := range []struct {
		name          string
		targets, tips []int
	}{
		{"every commit, the refs", all, refNodes},
		{"two commits, every commit", []int{all[3], all[n-2]}, all},
		{"every commit, every commit", all, all},
		{"refs, refs", refNodes, refNodes},
		{"late half, early half", all[n/2:], all[:n/2]},
	} {
		got := g.ContainedBy(c.targets, c.tips)
		for k, target := range c.targets {
			var want []int
			for ti, tip := range c.tips {
				if g.Reachable([]int{tip}, nil)[target] {
					want = append(want, ti)
				}
			}
			if !reflect.DeepEqual(got[k], want) {
				t.Errorf("%s: target %d contained by %v, want %v", c.name, target, got[k], want)
			}
		}
	}
}
