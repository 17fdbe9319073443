package gitext_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// HistoryTips peels through the commit-graph where there is one and reads the other refs' objects on every
// core: with or without a commit-graph, packed or loose, it must list what git peels every branch and tag to,
// leaving out tags of trees and blobs, notes and the stash.
func TestHistoryTipsAgreesWithGit(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Initial commit", map[string]string{"a.txt": "a\n"})
	for i := 0; i < 40; i++ {
		r.Commit(fmt.Sprintf("Work %d", i), map[string]string{"a.txt": fmt.Sprint(i)})
		r.Git("branch", fmt.Sprintf("topic/%d", i))
		if i%2 == 0 {
			r.Git("tag", "-a", "-m", "release", fmt.Sprintf("v%d", i))
		} else {
			r.Git("tag", fmt.Sprintf("light%d", i))
		}
	}
	r.Git("tag", "-a", "-m", "a tag of a tag", "nested", "v4")
	r.Git("tag", "tree-tag", "HEAD^{tree}")
	r.Git("tag", "-a", "-m", "a tag of a blob", "blob-tag", "HEAD:a.txt")
	r.Git("notes", "add", "-m", "a note", "HEAD")
	r.Write("a.txt", "stashed\n")
	r.Git("stash")

	want := func() []string {
		var out []string
		for _, line := range strings.Split(r.Git("for-each-ref", "--format=%(refname) %(objecttype)",
			"refs/heads", "refs/remotes", "refs/tags"), "\n") {
			name, typ, _ := strings.Cut(line, " ")
			if typ != "commit" && typ != "tag" {
				continue
			}
			if peeled, err := r.GitErr("rev-parse", "--verify", "-q", name+"^{commit}"); err == nil {
				out = append(out, name+" "+peeled)
			}
		}
		return append(out, "HEAD "+r.Rev("HEAD"))
	}
	got := func() []string {
		_, tips := openWithTips(t, r)
		var out []string
		for _, tip := range tips {
			out = append(out, tip.Name.String()+" "+tip.Commit.String())
		}
		return out
	}
	for _, stage := range []string{"loose", "packed", "commit-graph"} {
		switch stage {
		case "packed":
			r.Git("pack-refs", "--all")
			r.Git("repack", "-adq")
		case "commit-graph":
			r.Git("commit-graph", "write", "--reachable")
		}
		g, w := got(), want()
		sort.Strings(g)
		sort.Strings(w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: HistoryTips lists, besides git's:\n%s\nand lacks:\n%s", stage, strings.Join(minus(g, w), "\n"), strings.Join(minus(w, g), "\n"))
		}
	}
}

// minus lists what a has and b lacks.
func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}
