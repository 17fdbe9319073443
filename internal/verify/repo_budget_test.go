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

// TestRepoPatchIDsOverBudget: git/patchids/ members are kept up to MaxRepoPatchIDsSize together and handed to
// the check by name; one past it is not kept, and the check is unusable with the reason, not passed.
func TestRepoPatchIDsOverBudget(t *testing.T) {
	c := &repoCollector{}
	w, _ := c.Member(memberCommits, 2)
	io.WriteString(w, "{}")
	w, _ = c.Member("git/patchids/pr_1.json", 3)
	io.WriteString(w, "one")
	if w, _ := c.Member("git/patchids/pr_2.json", MaxRepoPatchIDsSize-2); w != io.Discard {
		t.Fatalf("a git/patchids/ member past the budget together is kept (%T)", w)
	}
	var got RepoMembers
	chk := checkRepository(RepoCheck{Dir: ".", Check: func(m RepoMembers) RepoResult {
		got = m
		return RepoResult{}
	}}, c)
	if len(got.PatchIDs) != 1 || string(got.PatchIDs["git/patchids/pr_1.json"]) != "one" {
		t.Errorf("the check got %q", got.PatchIDs)
	}
	if chk.Status != Fail || !chk.unusable || len(chk.Problems) != 1 ||
		!strings.HasPrefix(chk.Problems[0], "git/patchids/pr_2.json: 16777214 bytes, past the repository check's budget of 16777216") {
		t.Fatalf("got %+v", chk)
	}
}
