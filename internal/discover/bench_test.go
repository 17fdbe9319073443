package discover

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// benchRepo makes a repository of n commits with git fast-import, a tenth of them naming ENG-42, with a
// commit-graph as git gc leaves one.
func benchRepo(b *testing.B, n int) *gittest.Repo {
	b.Helper()
	r := gittest.New(b)
	var s strings.Builder
	for i := 1; i <= n; i++ {
		msg := fmt.Sprintf("Change %d\n\nRefs: ENG-%d", i, 100+i%977)
		if i%10 == 0 {
			msg += ", ENG-42"
		}
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter C <c@example.com> %d +0000\ndata %d\n%s\n", i, 1700000000+i, len(msg), msg)
		if i > 1 {
			fmt.Fprintf(&s, "from :%d\n", i-1)
		}
		fmt.Fprintf(&s, "M 100644 inline f%d\ndata 2\n%d\n", i%50, i%10)
	}
	r.FastImport(s.String())
	r.Git("commit-graph", "write", "--reachable")
	return r
}

func benchFind(b *testing.B, useIndex bool) {
	r := benchRepo(b, 20000)
	tk, _ := ticket.Parse("jira", "ENG-42")
	opts := Options{Ticket: tk, Sources: []string{SourceTrailer, SourceMessage}, TrailerKeys: DefaultTrailerKeys, UseIndex: useIndex}
	if useIndex {
		repo, _ := gitext.Discover(r.Dir, r.Getenv)
		if _, err := Find(repo, opts); err != nil { // builds the index
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		repo, err := gitext.Discover(r.Dir, r.Getenv)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Find(repo, opts)
		if err != nil || len(res.Commits) != 2000 {
			b.Fatalf("%v, %d commits", err, len(res.Commits))
		}
	}
}

func BenchmarkFindCommitsCold(b *testing.B) { benchFind(b, false) }
func BenchmarkFindCommitsWarm(b *testing.B) { benchFind(b, true) }
