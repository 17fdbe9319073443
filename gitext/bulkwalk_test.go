package gitext_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// A walk of a packed repository without a commit-graph (what `git clone` leaves) reads the pack's commits on
// every core. It must see exactly the commits `git rev-list --all` lists, with their parents: not the pack's
// unreachable commits, and also the loose commits made since the clone.
func TestWalkPackedWithoutCommitGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	testBulkWalk(t, false)
}

// With a commit-graph, a walk that reads every message takes the same bulk path, and must give the same.
func TestWalkPackedWithCommitGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	testBulkWalk(t, true)
}

func testBulkWalk(t *testing.T, commitGraph bool) {
	t.Parallel()
	r := gittest.New(t)
	var unreachable []string
	r.Commit("Initial commit", map[string]string{"a.txt": "a\n"})
	for i := 0; i < 30; i++ {
		branch := fmt.Sprintf("feature/ENG-%d", i)
		r.Git("checkout", "-q", "-b", branch)
		for k := 0; k <= i%3; k++ {
			r.Commit(fmt.Sprintf("Work %d.%d\n\nRefs: ENG-%d", i, k, i), map[string]string{fmt.Sprintf("f%d.txt", i): fmt.Sprint(k)})
		}
		r.Git("checkout", "-q", "main")
		if i%5 == 4 {
			unreachable = append(unreachable, branch) // never merged, and deleted once packed
			continue
		}
		r.Git("merge", "-q", "--no-ff", "-m", "Merge branch '"+branch+"'", branch)
		if i%2 == 0 {
			r.Git("branch", "-q", "-d", branch)
		}
	}
	r.Git("tag", "-a", "-m", "release", "v1", "HEAD~3")
	r.Git("-c", "gc.writeCommitGraph=false", "repack", "-adq")
	r.Git("prune-packed")
	// Branches deleted after packing leave their commits in the pack, unreachable: read, never reached.
	for i, branch := range unreachable {
		unreachable[i] = r.Git("rev-parse", branch)
		r.Git("branch", "-q", "-D", branch)
	}
	r.Git("reflog", "expire", "--expire=now", "--all")
	// Loose commits on top, after the pack: a branch the pack lacks.
	r.Git("checkout", "-q", "-b", "local")
	r.Commit("Local work\n\nRefs: ENG-99", map[string]string{"local.txt": "x\n"})
	r.Commit("More local work", nil)
	if commitGraph {
		r.Git("commit-graph", "write", "--reachable")
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "objects", "info", "commit-graph")); (err == nil) != commitGraph {
		t.Fatalf("commit-graph present: %v, want %v", err == nil, commitGraph)
	}

	repo, tips := openWithTips(t, r)
	var prepared atomic.Int64
	seen := map[string]string{}
	upper := map[string]string{} // prep's answer, for the commits whose message prep dropped
	// prep drops the messages that name ENG-1… (visit will not need them: the walk keeps no copy); the others
	// must reach visit whole, though the bytes of the next commits were read where prep saw them.
	dropped := func(msg string) bool { return strings.Contains(msg, "ENG-1") }
	g, err := repo.WalkWith(nil, tips, func(c *gitext.WalkCommit) any {
		prepared.Add(1)
		up := strings.ToUpper(c.Message)
		if dropped(c.Message) {
			c.Message = ""
		}
		return up
	}, func(c *gitext.WalkCommit) error {
		if _, dup := seen[c.Hash.String()]; dup {
			t.Errorf("commit %s visited twice", c.Hash)
		}
		if up := c.Prepared.(string); dropped(up) {
			if c.Message != "" {
				t.Errorf("commit %s: message %q kept, though prep dropped it", c.Hash, c.Message)
			}
			upper[c.Hash.String()] = up
		} else if up != strings.ToUpper(c.Message) {
			t.Errorf("commit %s: Prepared %q is not prep's answer", c.Hash, c.Prepared)
		}
		if g := c.Node; g < 0 {
			t.Errorf("commit %s: node %d", c.Hash, g)
		}
		seen[c.Hash.String()] = c.Message
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := revListLines(g)
	for i := range g.Len() {
		if _, ok := seen[g.Node(i).Hash.String()]; !ok {
			t.Errorf("commit %s in the graph was not visited", g.Node(i).Hash)
		}
	}
	want := strings.Split(r.Git("rev-list", "--all", "--parents"), "\n")
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("walk gave\n%s\ngit rev-list --all --parents gives\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if int(prepared.Load()) < len(want) {
		t.Errorf("prep ran %d times for %d commits", prepared.Load(), len(want))
	}
	for h, msg := range seen {
		body := r.Git("log", "-1", "--format=%B", h)
		if up, ok := upper[h]; ok {
			msg, body = up, strings.ToUpper(body)
		}
		if strings.TrimRight(msg, "\n") != body {
			t.Errorf("commit %s: message %q, git says %q", h, msg, body)
		}
	}
	if len(upper) == 0 {
		t.Error("prep dropped no message: that path went untested")
	}
	// Node numbers are the graph's: each visited commit's number names it, and the pack's unreachable commits,
	// read but never reached, have none.
	for i := range g.Len() {
		n := g.Node(i)
		if j, ok := g.Index(n.Hash); !ok || j != i {
			t.Errorf("node %d: Index gives %d, %v", i, j, ok)
		}
	}
	if len(unreachable) == 0 {
		t.Fatal("no unreachable commit made")
	}
	for _, h := range unreachable {
		if j, ok := g.Index(plumbing.NewHash(h)); ok {
			t.Errorf("unreachable commit %s has node %d", h, j)
		}
	}
}

// The bulk walk lists only a pack's commit region (the commits git writes first, up to the first long run of
// trees and blobs). A pack written in another order, with commits after its trees and blobs, must still walk to
// exactly what git rev-list gives: the commits past the region are read by their ids.
func TestWalkPackWithCommitsAfterTreesAndBlobs(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	var history gittest.Commits // 40 commits in one git process
	for i := 0; i < 40; i++ {
		history.Add(fmt.Sprintf("Work %d\n\nRefs: ENG-%d", i, i), map[string]string{
			fmt.Sprintf("a/%d.txt", i): fmt.Sprint(i), fmt.Sprintf("b/%d.txt", i): fmt.Sprint(i, i)})
	}
	r.FastImport(history.String())
	// An old side branch merged at the top: the merge, first in the pack, marks the side commit, which comes only
	// after the trees and blobs; it waits on the walk's list of marked commits while the region is read.
	side := r.Git("commit-tree", "-p", "main~38", "-m", "Side work", "main~38^{tree}")
	merge := r.Git("commit-tree", "-p", "main", "-p", side, "-m", "Merge side", "main^{tree}")
	r.Git("update-ref", "refs/heads/main", merge)
	r.Git("tag", "-a", "-m", "release", "v1", "HEAD~7")
	r.Git("-c", "gc.writeCommitGraph=false", "repack", "-adq")
	// The newest 20 commits first, then every tree and blob (well over regionSlack), then the rest.
	commits := strings.Fields(r.Git("rev-list", "--all"))
	var others []plumbing.Hash
	for _, line := range strings.Split(r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"), "\n") {
		if f := strings.Fields(line); f[1] != "commit" {
			others = append(others, plumbing.NewHash(f[0]))
		}
	}
	var order, rest []plumbing.Hash
	for _, h := range commits {
		if len(order) < 20 && h != side {
			order = append(order, plumbing.NewHash(h))
		} else {
			rest = append(rest, plumbing.NewHash(h))
		}
	}
	order = append(append(order, others...), rest...)
	if len(others) < 100 {
		t.Fatalf("%d trees, blobs and tags: too few to end the commit region", len(others))
	}
	repo, err := git.PlainOpen(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var pack bytes.Buffer
	if _, err := packfile.NewEncoder(&pack, repo.Storer, false).Encode(order, 0); err != nil {
		t.Fatal(err)
	}
	packDir := filepath.Join(r.Dir, ".git", "objects", "pack")
	old, _ := filepath.Glob(filepath.Join(packDir, "pack-*"))
	for _, f := range old {
		os.Remove(f)
	}
	tmp := filepath.Join(t.TempDir(), "foreign.pack")
	if err := os.WriteFile(tmp, pack.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSpace(r.Git("index-pack", tmp))
	for _, ext := range []string{".pack", ".idx"} {
		src := strings.TrimSuffix(tmp, ".pack") + ext
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(packDir, "pack-"+name+ext), data, 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.Git("count-objects", "-v"); !strings.Contains(got, "count: 0") || !strings.Contains(got, "packs: 1") {
		t.Fatalf("want one pack and no loose object:\n%s", got)
	}

	want := strings.Split(r.Git("rev-list", "--all", "--parents"), "\n")
	sort.Strings(want)
	// Swept from 2 on, the walk's list of commits marked before they arrived is swept at every growth, while the
	// commits past the region (marked, never to arrive in the bulk read) are on it: they must stay.
	var seen map[string]string
	for _, sweep := range []int{0, 2} {
		gr, tips := openWithTips(t, r)
		if sweep > 0 {
			gr.SweepAloneFrom(sweep)
		}
		seen = map[string]string{}
		g, err := gr.Walk(tips, func(c *gitext.WalkCommit) error {
			seen[c.Hash.String()] = c.Message
			return nil
		})
		if err != nil {
			t.Fatalf("sweep %d: %v", sweep, err)
		}
		got := revListLines(g)
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(seen) != len(want) {
			t.Fatalf("sweep %d: walk gave\n%s\ngit rev-list --all --parents gives\n%s", sweep,
				strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for h, msg := range seen {
		if body := r.Git("log", "-1", "--format=%B", h); strings.TrimRight(msg, "\n") != body {
			t.Errorf("commit %s: message %q, git says %q", h, msg, body)
		}
	}
}

// revListLines is g as `git rev-list --parents` lists it: each commit, then its parents, one line a commit.
func revListLines(g *gitext.Graph) []string {
	lines := make([]string, 0, g.Len())
	for i := range g.Len() {
		lines = append(lines, nodeLine(g, i))
	}
	return lines
}
