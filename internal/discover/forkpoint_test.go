package discover

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// unpushedBase is a clone whose local trunk is four commits ahead of origin/trunk (origin/HEAD points at it), as
// on a developer's machine between commits and a push.
func unpushedBase(t *testing.T) *scenario {
	s := &scenario{r: gittest.New(t), sha: map[string]string{}}
	r := s.r
	r.Git("checkout", "-q", "-b", "trunk")
	s.sha["o1"] = r.Commit("Initial commit", map[string]string{"README": "x\n"})
	s.sha["o2"] = r.Commit("Pushed work", map[string]string{"a": "1\n"})
	r.Git("update-ref", "refs/remotes/origin/trunk", "HEAD")
	r.Git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	for i, name := range []string{"u1", "u2", "u3", "u4"} {
		s.sha[name] = r.Commit("Local work "+name, map[string]string{name: string(rune('1'+i)) + "\n"})
	}
	return s
}

// gitLog is `git log --format=%H rangeArgs...` as a sorted list: what git itself says a range holds.
func gitLog(r *gittest.Repo, args ...string) []string {
	out := r.Git(append([]string{"log", "--format=%H"}, args...)...)
	if out == "" {
		return nil
	}
	list := strings.Split(out, "\n")
	sort.Strings(list)
	return list
}

func sortedCommits(res *Commits) []string {
	out := append([]string(nil), res.Commits...)
	sort.Strings(out)
	if len(out) == 0 {
		return nil
	}
	return out
}

// Issue 26 item 1: local trunk 4 ahead of origin/trunk, KAFKA-99998-fix branched from it and merged. The bundle
// held the 4 unpushed commits too (the branch rule compared only with origin/trunk). A branch's commits are the
// ones it adds over where it forked from its base, local or remote-tracking.
func TestBranchFromUnpushedBaseTiesOnlyItsOwnCommits(t *testing.T) {
	t.Parallel()
	s := unpushedBase(t)
	r := s.r
	r.Git("checkout", "-q", "-b", "KAFKA-99998-fix")
	s.sha["k1"] = r.Commit("Fix the consumer", map[string]string{"k": "1\n"})
	s.sha["k2"] = r.Commit("Test the fix", map[string]string{"k": "2\n"})
	r.Git("checkout", "-q", "trunk")
	forked := r.Rev("trunk")

	// Before the merge: git log trunk..KAFKA-99998-fix.
	res := s.find(t, r.Dir, "KAFKA-99998")
	if got, want := sortedCommits(res), gitLog(r, "trunk..KAFKA-99998-fix"); !reflect.DeepEqual(got, want) {
		t.Fatalf("before the merge: got %v, want git log trunk..KAFKA-99998-fix: %v", s.labels(res), want)
	}

	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'KAFKA-99998-fix' into trunk", "KAFKA-99998-fix")
	s.sha["merge"] = r.Rev("HEAD")
	res = s.find(t, r.Dir, "KAFKA-99998")
	want := append(gitLog(r, forked+"..KAFKA-99998-fix"), s.sha["merge"])
	sort.Strings(want)
	if got := sortedCommits(res); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the merge: got %v, want the branch's own commits (git log %s..KAFKA-99998-fix) and the merge",
			s.labels(res), forked[:7])
	}
	if got, want := s.labels(res), []string{
		"k1 branch:KAFKA-99998-fix,merge:KAFKA-99998-fix",
		"k2 branch:KAFKA-99998-fix,merge:KAFKA-99998-fix",
		"merge merge:KAFKA-99998-fix,message",
	}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The base merged into the ticket branch (to bring it up to date) is not the ticket's work, whether the base's
// new commits are pushed or only local, and whether the ticket branch is merged back or not.
func TestBaseMergedIntoTicketBranch(t *testing.T) {
	t.Parallel()
	s := unpushedBase(t)
	r := s.r
	r.Git("checkout", "-q", "-b", "KAFKA-99998-fix", s.sha["o2"])
	s.sha["k1"] = r.Commit("Fix the consumer", map[string]string{"k": "1\n"})
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'trunk' into KAFKA-99998-fix", "trunk")
	s.sha["update"] = r.Rev("HEAD")
	s.sha["k2"] = r.Commit("Test the fix", map[string]string{"k": "2\n"})

	res := s.find(t, r.Dir, "KAFKA-99998")
	if got, want := sortedCommits(res), gitLog(r, "trunk..KAFKA-99998-fix"); !reflect.DeepEqual(got, want) {
		t.Fatalf("unmerged: got %v, want git log trunk..KAFKA-99998-fix", s.labels(res))
	}

	r.Git("checkout", "-q", "trunk")
	forked := r.Rev("trunk")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'KAFKA-99998-fix' into trunk", "KAFKA-99998-fix")
	s.sha["merge"] = r.Rev("HEAD")
	res = s.find(t, r.Dir, "KAFKA-99998")
	want := append(gitLog(r, forked+"..KAFKA-99998-fix"), s.sha["merge"])
	sort.Strings(want)
	if got := sortedCommits(res); !reflect.DeepEqual(got, want) {
		t.Fatalf("merged back: got %v, want git log %s..KAFKA-99998-fix and the merge", s.labels(res), forked[:7])
	}

	// Pushed: origin/trunk holds the merge too; the branch still ties only its own commits.
	r.Git("update-ref", "refs/remotes/origin/trunk", "trunk")
	res = s.find(t, r.Dir, "KAFKA-99998")
	if got := sortedCommits(res); !reflect.DeepEqual(got, want) {
		t.Fatalf("pushed: got %v, want git log %s..KAFKA-99998-fix and the merge", s.labels(res), forked[:7])
	}
	for _, d := range res.Details {
		if d.SHA == s.sha["k1"] && !reflect.DeepEqual(d.MatchedBy, []string{"branch:KAFKA-99998-fix", "merge:KAFKA-99998-fix"}) {
			t.Errorf("k1 matched by %q", d.MatchedBy)
		}
	}
}

// A fast-forward leaves no trace in the graph of where the branch forked, but the base's reflog does: git merge
// writes "merge KAFKA-99998-fix: Fast-forward" with where trunk was before. That is the post-merge hook's case.
func TestFastForwardedBranch(t *testing.T) {
	t.Parallel()
	s := unpushedBase(t)
	r := s.r
	r.Git("checkout", "-q", "-b", "KAFKA-99998-fix")
	s.sha["k1"] = r.Commit("Fix the consumer", map[string]string{"k": "1\n"})
	s.sha["k2"] = r.Commit("Test the fix", map[string]string{"k": "2\n"})
	r.Git("checkout", "-q", "trunk")
	forked := r.Rev("trunk")
	r.Git("merge", "-q", "--ff-only", "KAFKA-99998-fix")
	res := s.find(t, r.Dir, "KAFKA-99998")
	if got, want := sortedCommits(res), gitLog(r, forked+"..KAFKA-99998-fix"); !reflect.DeepEqual(got, want) {
		t.Fatalf("fast-forwarded: got %v, want git log %s..KAFKA-99998-fix", s.labels(res), forked[:7])
	}

	// More work on the branch, fast-forwarded again: the branch still forked where the first merge began.
	r.Git("checkout", "-q", "KAFKA-99998-fix")
	s.sha["k3"] = r.Commit("Tidy the fix", map[string]string{"k": "3\n"})
	r.Git("checkout", "-q", "trunk")
	r.Git("merge", "-q", "--ff-only", "KAFKA-99998-fix")
	res = s.find(t, r.Dir, "KAFKA-99998")
	if got, want := sortedCommits(res), gitLog(r, forked+"..KAFKA-99998-fix"); !reflect.DeepEqual(got, want) || len(got) != 3 {
		t.Fatalf("fast-forwarded twice: got %v, want git log %s..KAFKA-99998-fix", s.labels(res), forked[:7])
	}

	// A new branch made on trunk, no commits of its own yet: it adds nothing (git log trunk..KAFKA-99997-new).
	r.Git("branch", "KAFKA-99997-new")
	res = s.find(t, r.Dir, "KAFKA-99997")
	if len(res.Commits) != 0 {
		t.Fatalf("new branch: got %v, want nothing", s.labels(res))
	}
	// Nor one made further down trunk's line.
	r.Git("branch", "KAFKA-99996-old", s.sha["u2"])
	res = s.find(t, r.Dir, "KAFKA-99996")
	if len(res.Commits) != 0 {
		t.Fatalf("branch made at u2: got %v, want nothing", s.labels(res))
	}

	// Without reflogs the fast-forward is not seen: the branch is then measured from origin/trunk, so that its
	// own commits are never lost (the documented limit: the unpushed ones join it).
	if err := os.RemoveAll(filepath.Join(r.Dir, ".git", "logs")); err != nil {
		t.Fatal(err)
	}
	res = s.find(t, r.Dir, "KAFKA-99998")
	if got, want := sortedCommits(res), gitLog(r, "origin/trunk..KAFKA-99998-fix"); !reflect.DeepEqual(got, want) {
		t.Fatalf("no reflog: got %v, want git log origin/trunk..KAFKA-99998-fix", s.labels(res))
	}
	// Only local trunk, fast-forwarded, no reflog: nothing to measure from but trunk; nothing is tied.
	r.Git("update-ref", "-d", "refs/remotes/origin/HEAD")
	r.Git("update-ref", "-d", "refs/remotes/origin/trunk")
	r.Git("branch", "-m", "trunk", "main")
	if err := os.RemoveAll(filepath.Join(r.Dir, ".git", "logs")); err != nil {
		t.Fatal(err)
	}
	res = s.find(t, r.Dir, "KAFKA-99998", SourceBranch)
	if len(res.Commits) != 0 || len(res.Warnings) != 0 {
		t.Fatalf("got %v %q, want nothing (git log main..KAFKA-99998-fix is empty)", s.labels(res), res.Warnings)
	}
}
