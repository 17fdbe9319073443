package gitext

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// randomHistory writes n commits with git fast-import: each on a parent among the last few (a merge of two
// now and then), dated a few seconds after its newest parent, or before it when skew is set (clock skew on 5%
// of commits). It returns the commits' ids in the order made.
func randomHistory(t *testing.T, r *gittest.Repo, n int, seed uint64, skew bool) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var in strings.Builder
	when := make([]int64, n)
	for i := range n {
		var parents []int
		if i > 0 {
			parents = append(parents, max(0, i-1-rng.IntN(6)))
			if i > 3 && rng.IntN(7) == 0 {
				if p := rng.IntN(i); p != parents[0] {
					parents = append(parents, p)
				}
			}
		}
		when[i] = 1767225600
		for _, p := range parents {
			when[i] = max(when[i], when[p]+int64(rng.IntN(3))) // same second now and then
		}
		if skew && rng.IntN(20) == 0 {
			when[i] -= int64(rng.IntN(5000))
		}
		msg := fmt.Sprintf("commit %d", i)
		fmt.Fprintf(&in, "commit refs/heads/main\nmark :%d\ncommitter C <c@example.com> %d +0000\ndata %d\n%s\n",
			i+1, when[i], len(msg), msg)
		for k, p := range parents {
			fmt.Fprintf(&in, "%s :%d\n", map[bool]string{true: "from", false: "merge"}[k == 0], p+1)
		}
	}
	marks := filepath.Join(t.TempDir(), "marks")
	r.FastImport(in.String(), "--force", "--export-marks="+marks)
	ids := make([]string, n)
	out, err := os.ReadFile(marks)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var mark int
		var id string
		if _, err := fmt.Sscanf(l, ":%d %s", &mark, &id); err != nil {
			t.Fatalf("marks line %q: %v", l, err)
		}
		ids[mark-1] = id
	}
	return ids
}

// TestRangeCommitsAgreesWithRevList: on random histories with merges and same-second commits, the range walk
// lists exactly what `git rev-list B ^A` lists; with clock skew it lists at least that (never leaves one out).
func TestRangeCommitsAgreesWithRevList(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	for _, c := range []struct {
		seed uint64
		skew bool
	}{{1, false}, {2, false}, {3, true}, {4, true}} {
		r := gittest.New(t)
		ids := randomHistory(t, r, 300, c.seed, c.skew)
		repo, err := Discover(r.Dir, r.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		parents := map[string][]string{}
		for _, l := range strings.Split(r.Git("rev-list", "--parents", "--all"), "\n") {
			f := strings.Fields(l)
			parents[f[0]] = f[1:]
		}
		rng := rand.New(rand.NewPCG(c.seed, 2))
		for range 40 {
			a, b := ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]
			rg, err := repo.RangeOf(a+".."+b, func(rev string) (Hash, error) { return NewHash(rev), nil })
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, cm := range rg.Commits {
				got = append(got, cm.Hash.String())
			}
			var want []string
			if s := r.Git("rev-list", b, "^"+a); s != "" {
				want = strings.Split(s, "\n")
			}
			slices.Sort(want)
			sorted := slices.Sorted(slices.Values(got))
			if !c.skew && !slices.Equal(sorted, want) {
				t.Errorf("seed %d: %s..%s: %d commits, git rev-list lists %d", c.seed, a[:7], b[:7], len(got), len(want))
			}
			for _, w := range want {
				if _, found := slices.BinarySearch(sorted, w); !found {
					t.Errorf("seed %d skew %v: %s..%s leaves out %s, which git rev-list lists", c.seed, c.skew, a[:7], b[:7], w[:7])
				}
			}
			checkParentsFirst(t, parents, got)
		}
	}
}

// checkParentsFirst fails when a commit is listed before one of its parents.
func checkParentsFirst(t *testing.T, parents map[string][]string, order []string) {
	t.Helper()
	pos := map[string]int{}
	for i, h := range order {
		pos[h] = i
	}
	for i, h := range order {
		for _, p := range parents[h] {
			if j, ok := pos[p]; ok && j > i {
				t.Fatalf("%s listed before its parent %s", h[:7], p[:7])
			}
		}
	}
}
