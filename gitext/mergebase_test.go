package gitext_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// mergeBaseRepo is a history with a merged side branch, a criss-cross (x and y each merge the other's first
// commit, so x2 and y2 have two best common ancestors), commits on top of both, and a root of its own (no history
// in common with the rest). It returns the repository and its commits by name.
func mergeBaseRepo(t *testing.T) (*gittest.Repo, map[string]string) {
	t.Helper()
	r := gittest.New(t)
	c := map[string]string{}
	c["r0"] = r.Commit("root", map[string]string{"a": "a\n"})
	r.Git("checkout", "-q", "-b", "side")
	c["s1"] = r.Commit("side", map[string]string{"s": "s\n"})
	r.Git("checkout", "-q", "main")
	c["m2"] = r.Commit("main", map[string]string{"m": "m\n"})
	r.Git("merge", "-q", "--no-edit", "side")
	c["m3"] = r.Rev("HEAD")
	r.Git("checkout", "-q", "-b", "x")
	c["x1"] = r.Commit("x1", map[string]string{"x": "1\n"})
	r.Git("checkout", "-q", "-b", "y", "main")
	c["y1"] = r.Commit("y1", map[string]string{"y": "1\n"})
	r.Git("merge", "-q", "--no-edit", c["x1"])
	c["y2"] = r.Rev("HEAD")
	c["y3"] = r.Commit("y3", map[string]string{"y": "3\n"})
	r.Git("checkout", "-q", "x")
	r.Git("merge", "-q", "--no-edit", c["y1"])
	c["x2"] = r.Rev("HEAD")
	c["x3"] = r.Commit("x3", map[string]string{"x": "3\n"})
	r.Git("checkout", "-q", "--orphan", "lone")
	c["lone"] = r.Commit("lone root", map[string]string{"l": "l\n"})
	return r, c
}

// MergeBase gives what `git merge-base --all` prints, in its order, for every pair of the history's commits:
// read from the objects, then from a commit-graph, then in a shallow clone whose boundary cuts the history.
func TestMergeBaseLikeGit(t *testing.T) {
	t.Parallel()
	r, c := mergeBaseRepo(t)
	names := []string{"r0", "s1", "m3", "x1", "y1", "x2", "y3", "x3", "lone"}
	if testing.Short() {
		names = []string{"x1", "y1", "y3", "x3", "lone"} // the criss-cross and no common history
	}
	if bases := strings.Fields(r.Git("merge-base", "--all", c["x3"], c["y3"])); len(bases) != 2 {
		t.Fatalf("x3 and y3 have merge bases %v; the history is not the criss-cross it means to be", bases)
	}
	check := func(what string, r *gittest.Repo, names []string) {
		t.Helper()
		repo, err := gitext.Discover(r.Dir, r.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range names {
			for _, b := range names[i:] {
				want, _ := r.GitErr("merge-base", "--all", c[a], c[b]) // exit 1, no output: none in common
				bases, err := repo.MergeBase(gitext.NewHash(c[a]), gitext.NewHash(c[b]))
				if err != nil {
					t.Fatalf("%s: MergeBase(%s, %s): %v", what, a, b, err)
				}
				var got []string
				for _, h := range bases {
					got = append(got, h.String())
				}
				if strings.Join(got, "\n") != want {
					t.Errorf("%s: MergeBase(%s, %s) = %v, git merge-base --all says %v", what, a, b,
						label(c, got), label(c, strings.Fields(want)))
				}
			}
		}
	}
	check("objects", r, names)
	r.Git("commit-graph", "write", "--reachable")
	check("commit-graph", r, names)

	// A clone two commits deep on x and y: git and MergeBase both stop at the boundary.
	shallow := r.Open(filepath.Join(filepath.Dir(r.Dir), "shallow"))
	r.Git("clone", "-q", "--depth=2", "--no-single-branch", "--no-local", "file://"+r.Dir, shallow.Dir)
	check("shallow clone", shallow, []string{"x3", "y3", "x2", "y2"})

	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tree := gitext.NewHash(r.Rev("HEAD^{tree}"))
	if _, err := repo.MergeBase(tree, gitext.NewHash(c["x3"])); err == nil {
		t.Error("MergeBase of a tree: no error")
	}
}

// label names the commits of c among shas, for messages.
func label(c map[string]string, shas []string) []string {
	out := make([]string, len(shas))
	for i, s := range shas {
		out[i] = s[:7]
		for name, sha := range c {
			if sha == s {
				out[i] = name
			}
		}
	}
	return out
}
