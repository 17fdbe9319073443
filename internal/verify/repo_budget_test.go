package verify

import (
	"io"
	"strings"
	"testing"
)

// TestRepoPatchOverBudget: a git/diff.patch larger than MaxRepoPatchSize is not kept in memory, the repository
// check is not run on it, and the check is unusable (UNVERIFIABLE) with the reason, not failed and not passed.
func TestRepoPatchOverBudget(t *testing.T) {
	c := &repoCollector{}
	w, err := c.Member(memberCommits, 2)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "{}")
	if w, _ := c.Member(memberPatch, MaxRepoPatchSize+1); w != io.Discard {
		t.Fatalf("a git/diff.patch over the budget is kept (%T)", w)
	}
	chk := checkRepository(RepoCheck{Dir: ".", Check: func(RepoMembers) RepoResult {
		t.Fatal("the check ran on a git/diff.patch over the budget")
		return RepoResult{}
	}}, c)
	if chk.Status != Fail || !chk.unusable || len(chk.Problems) != 1 ||
		!strings.Contains(chk.Problems[0], "git/diff.patch: 268435457 bytes, more than the repository check's budget of 268435456: not read") {
		t.Fatalf("got %+v", chk)
	}
}
