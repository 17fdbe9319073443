package gittest

import "testing"

// Releases is a project shaped like Kafka's: trunk, release branches forked from it, and release candidates
// tagged on side commits (a version bump committed off the release branch and tagged, never merged back), so that
// most tags are on no branch's history. KAFKA-10199's fix lands on trunk before 3.3 forks and is cherry-picked
// (-x) to 3.2; a later fix lands on trunk only.
type Releases struct {
	*Repo
	// Fix is the fix on trunk, Backport its cherry-pick to 3.2, Later a second fix on trunk after 3.3 forked.
	Fix, Backport, Later string
}

// NewReleases builds Releases:
//
//	trunk: base ─ Fix ─ f1 ─ Later ─ f2     trunk-nightly on f2, the one tag on trunk's history
//	3.3:              f1 ─ bump             3.3.0-rc0 and 3.3.0 on bump, a side commit off 3.3 (tip f1)
//	3.2:   base ─ Backport ─ s1 ─ s2        3.2.1 on s2, on the branch
//	side:  base ─ bump                      3.2.0-rc0
//	       Backport ─ bump                  3.2.0-rc1 and 3.2.0
//
// So git tag --contains Fix lists 3.3.0, 3.3.0-rc0 and trunk-nightly, but git tag --merged trunk --contains Fix
// only trunk-nightly, and --merged 3.3 none.
func NewReleases(t testing.TB) *Releases {
	t.Helper()
	r := New(t)
	x := &Releases{Repo: r}
	r.Git("checkout", "-q", "-b", "trunk")
	r.Commit("Initial commit", map[string]string{"core.txt": "a\nb\nc\n", "version": "3.2.0-SNAPSHOT\n"})
	r.Git("branch", "3.2")
	r.Git("checkout", "-q", "--detach", "3.2")
	r.Commit("Bump version to 3.2.0", map[string]string{"version": "3.2.0\n"})
	r.Git("tag", "-a", "-m", "3.2.0-rc0", "3.2.0-rc0")
	r.Git("checkout", "-q", "trunk")
	x.Fix = r.Commit("KAFKA-10199: Remove the old call", map[string]string{"core.txt": "a\nB\nc\n"})
	r.Commit("Open 3.3", map[string]string{"version": "3.3.0-SNAPSHOT\n"})
	r.Git("branch", "3.3")
	x.Later = r.Commit("KAFKA-10199: Follow-up", map[string]string{"core.txt": "a\nB\nC\n"})
	r.Commit("More trunk work", map[string]string{"other.txt": "1\n"})
	r.Git("tag", "trunk-nightly")

	r.Git("checkout", "-q", "3.2")
	r.Git("cherry-pick", "-x", x.Fix)
	x.Backport = r.Rev("HEAD")
	r.Git("checkout", "-q", "--detach", "3.2")
	r.Commit("Bump version to 3.2.0", map[string]string{"version": "3.2.0\n"})
	r.Git("tag", "-a", "-m", "3.2.0-rc1", "3.2.0-rc1")
	r.Git("tag", "3.2.0")
	r.Git("checkout", "-q", "3.2")
	r.Commit("Stable work", map[string]string{"other.txt": "s1\n"})
	r.Commit("Stable work 2", map[string]string{"other.txt": "s2\n"})
	r.Git("tag", "-a", "-m", "3.2.1", "3.2.1")

	r.Git("checkout", "-q", "--detach", "3.3")
	r.Commit("Bump version to 3.3.0", map[string]string{"version": "3.3.0\n"})
	r.Git("tag", "-a", "-m", "3.3.0-rc0", "3.3.0-rc0")
	r.Git("tag", "3.3.0")
	r.Git("checkout", "-q", "trunk")
	return x
}
