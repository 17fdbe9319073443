package gitext_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// ReadWalkCommits reads on every core but must hand back what ReadWalkCommit reads, in the order asked; a
// missing commit is ErrMissingObject; and ReadCommit of a commit it kept reads the same commit.
func TestReadWalkCommits(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	r := gittest.New(t)
	for i := 0; i < 120; i++ {
		r.Commit(fmt.Sprintf("Change %d\n\nRefs: ENG-%d", i, i%7), map[string]string{"f.txt": fmt.Sprint(i)})
	}
	r.Git("gc", "-q")
	repo, tips := openWithTips(t, r)
	g, err := repo.Walk(tips, nil)
	if err != nil {
		t.Fatal(err)
	}
	var nodes []int
	for i := g.Len() - 1; i >= 0; i -= 2 { // not in node order
		nodes = append(nodes, i)
	}
	got, err := repo.ReadWalkCommits(g, nodes, "test")
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range nodes {
		want, err := repo.ReadWalkCommit(i, g.Node(i).Hash, "test")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[k], want) {
			t.Fatalf("commit %d: got %+v, want %+v", k, got[k], want)
		}
		kept, err := repo.ReadCommit(g.Node(i).Hash, "test")
		if err != nil {
			t.Fatal(err)
		}
		if kept.Hash != g.Node(i).Hash || kept.Message != want.Message {
			t.Fatalf("ReadCommit after ReadWalkCommits: %s %q, want %s %q", kept.Hash, kept.Message, g.Node(i).Hash, want.Message)
		}
	}

	all := make([]gitext.Node, 0, g.Len()+1)
	for i := range g.Len() {
		all = append(all, g.Node(i))
	}
	missing := gitext.GraphOfNodes(append(all, gitext.Node{Hash: gitext.NewHash("1234567890123456789012345678901234567890")}))
	if _, err := repo.ReadWalkCommits(missing, []int{0, g.Len(), 1}, "test"); !errors.Is(err, gitext.ErrMissingObject) {
		t.Errorf("missing commit: %v, want ErrMissingObject", err)
	}
}
