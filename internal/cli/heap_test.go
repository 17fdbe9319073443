package cli

import (
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// commits tells main the run is small (SmallHeap: let the heap grow before collecting) and, only when it walks
// all history (no usable ticket index), that a node per commit lives until it exits (LongHeap): a warm run
// answered from the index must not be paced as a first run is.
func TestCommitsTellsMainItsHeap(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Initial commit", map[string]string{"a.txt": "a\n"})
	r.Commit("ENG-42: fix the parser", map[string]string{"a.txt": "b\n"})
	for _, tc := range []struct {
		run        string
		small, big int
	}{
		{"first (builds the index)", 1, 1},
		{"warm (the index answers)", 1, 0},
	} {
		var small, big int
		env := testEnv(r.Dir, r.Env)
		env.SmallHeap = func() { small++ }
		env.LongHeap = func() { big++ }
		if _, errOut, code := runEnv(t, env, "commits", "--tracker", "jira", "ENG-42"); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.run, code, errOut)
		}
		if small != tc.small || big != tc.big {
			t.Errorf("%s run: SmallHeap called %d times, LongHeap %d; want %d and %d", tc.run, small, big,
				tc.small, tc.big)
		}
	}
}
