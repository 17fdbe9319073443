package gitext_test

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// Reflog reads what `git log -g` shows of a branch: each move's new value and message, here a commit, a branch
// made, a fast-forward merge; from a linked worktree too (reflogs of branches live in the common dir). A ref
// with no log has none.
func TestReflogAgreesWithGit(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Initial commit", map[string]string{"a.txt": "a\n"})
	r.Git("checkout", "-q", "-b", "KAFKA-1-fix")
	r.Commit("Fix it", map[string]string{"a.txt": "b\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--ff-only", "KAFKA-1-fix")
	r.Git("tag", "v1") // no log: core.logAllRefUpdates logs branches, remote-tracking branches, notes and HEAD
	r.Git("worktree", "add", "-q", "--detach", r.Dir+"-wt")
	for _, dir := range []string{r.Dir, r.Dir + "-wt"} {
		repo, err := gitext.Discover(dir, r.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		entries, ok, err := repo.Reflog(plumbing.NewBranchReferenceName("main"))
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", dir, ok, err)
		}
		var got []string
		for k := len(entries) - 1; k >= 0; k-- { // git log -g: newest first
			got = append(got, entries[k].New.String()+" "+entries[k].Message)
		}
		if want := r.Git("log", "-g", "--format=%H %gs", "refs/heads/main"); strings.Join(got, "\n") != want {
			t.Errorf("%s: got\n%s\nwant (git log -g)\n%s", dir, strings.Join(got, "\n"), want)
		}
		if !strings.HasPrefix(entries[len(entries)-1].Message, "merge KAFKA-1-fix: Fast-forward") {
			t.Errorf("last entry %q", entries[len(entries)-1].Message)
		}
		if _, ok, err := repo.Reflog("refs/tags/v1"); ok || err != nil {
			t.Errorf("a ref without a log: ok %v, %v", ok, err)
		}
	}
}
