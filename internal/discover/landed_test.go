package discover

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// backports is a project with two release lines: a fix on main, cherry-picked with -x to stable/2 cleanly and to
// stable/1 with a conflict fixed by hand, tags on each line, and a remote whose HEAD is a symbolic ref.
type backports struct {
	r                      *gittest.Repo
	fix, pick2, pick1, end string
}

func lines(n int, edit map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := edit[i]; ok {
			b.WriteString(s + "\n")
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func newBackports(t *testing.T) *backports {
	r := gittest.New(t)
	b := &backports{r: r}
	r.Commit("Initial commit", map[string]string{"app.txt": lines(30, nil), "notes.txt": "a\n"})
	r.Git("tag", "v1.0")
	r.Git("branch", "stable/1")
	r.Commit("Refactor the middle", map[string]string{"app.txt": lines(30, map[int]string{15: "line 15 refactored"})})
	r.Git("tag", "-a", "-m", "Release 2.0", "v2.0")
	r.Git("branch", "stable/2")
	b.fix = r.Commit("Fix the overflow\n\nCloses-Bug: #77\nRefs: ENG-42",
		map[string]string{"app.txt": lines(30, map[int]string{3: "line 3 fixed", 15: "line 15 refactored and fixed"})})
	r.Git("tag", "-a", "-m", "Release 3.0", "v3.0")
	r.Git("tag", "v3.0-final") // a second tag on the same commit: both are first
	r.Commit("More work", map[string]string{"notes.txt": "b\n"})
	r.Git("tag", "v3.1")

	r.Git("checkout", "-q", "stable/2")
	r.Git("cherry-pick", "-x", b.fix)
	b.pick2 = r.Rev("HEAD")
	r.Git("tag", "v2.0.1")
	r.Commit("Stable work", map[string]string{"notes.txt": "s2\n"})
	r.Git("tag", "v2.0.2")

	r.Git("checkout", "-q", "stable/1")
	if _, err := r.GitErr("cherry-pick", "-x", b.fix); err == nil {
		t.Fatal("the cherry-pick to stable/1 should conflict")
	}
	r.Write("app.txt", lines(30, map[int]string{3: "line 3 fixed", 15: "line 15 fixed the old way"}))
	r.Git("add", "app.txt")
	r.Git("-c", "core.editor=true", "cherry-pick", "--continue")
	b.pick1 = r.Rev("HEAD")
	r.Git("tag", "v1.0.1")
	r.Git("checkout", "-q", "main")

	origin := filepath.Join(filepath.Dir(r.Dir), "origin.git")
	r.Git("init", "-q", "--bare", origin)
	r.Git("remote", "add", "origin", origin)
	r.Git("push", "-q", "origin", "main", "stable/2")
	r.Git("remote", "set-head", "origin", "main")
	b.end = r.Rev("HEAD")
	return b
}

func TestBackportsLinkedAndLanded(t *testing.T) {
	t.Parallel()
	b := newBackports(t)
	s := &scenario{r: b.r}
	res := s.find(t, b.r.Dir, "ENG-42")
	by := map[string]CommitDetail{}
	for _, d := range res.Details {
		by[d.SHA] = d
	}
	if len(res.Details) != 3 || by[b.fix].SHA == "" || by[b.pick1].SHA == "" || by[b.pick2].SHA == "" {
		t.Fatalf("tied commits %v, want the fix and both backports", res.Commits)
	}
	fix, pick1, pick2 := by[b.fix], by[b.pick1], by[b.pick2]

	// The clean backport shares the fix's patch id; the conflict-fixed one does not, but names the fix.
	if fix.PatchID == nil || pick2.PatchID == nil || *fix.PatchID != *pick2.PatchID {
		t.Errorf("patch ids of the fix and its clean backport: %v, %v; want equal", str(fix.PatchID), str(pick2.PatchID))
	}
	if pick1.PatchID == nil || *pick1.PatchID == *fix.PatchID {
		t.Errorf("the conflict-fixed backport's patch id %v should differ from the fix's", str(pick1.PatchID))
	}
	for _, d := range res.Details {
		if got, want := str(d.PatchID), gitPatchID(t, b.r, d.SHA); got != want {
			t.Errorf("%s: patch_id %s, git show | git patch-id --stable says %s", d.Subject, got, want)
		}
	}
	if len(fix.CherryPickedFrom) != 0 || !reflect.DeepEqual(pick1.CherryPickedFrom, []string{b.fix}) ||
		!reflect.DeepEqual(pick2.CherryPickedFrom, []string{b.fix}) {
		t.Errorf("cherry_picked_from: fix %v, stable/1 %v, stable/2 %v; want [], [fix], [fix]",
			fix.CherryPickedFrom, pick1.CherryPickedFrom, pick2.CherryPickedFrom)
	}

	want := map[string]LandedOn{
		b.fix: {Branches: []string{"main", "remotes/origin/main"}, Tags: []string{"v3.0", "v3.0-final"},
			FirstTagsByBranch: map[string][]string{"main": {"v3.0", "v3.0-final"}, "remotes/origin/main": {"v3.0", "v3.0-final"}}},
		b.pick2: {Branches: []string{"stable/2", "remotes/origin/stable/2"}, Tags: []string{"v2.0.1"},
			FirstTagsByBranch: map[string][]string{"stable/2": {"v2.0.1"}, "remotes/origin/stable/2": {"v2.0.1"}}},
		b.pick1: {Branches: []string{"stable/1"}, Tags: []string{"v1.0.1"},
			FirstTagsByBranch: map[string][]string{"stable/1": {"v1.0.1"}}},
	}
	for sha, w := range want {
		d := by[sha]
		if d.LandedOn == nil || !reflect.DeepEqual(*d.LandedOn, w) {
			t.Errorf("%s: landed_on %+v, want %+v", d.Subject, d.LandedOn, w)
		}
		// And as git says it: git branch -a --contains, and the first of git tag --contains.
		if got, git := d.LandedOn.Branches, gitBranchesContaining(t, b.r, sha); !sameSet(got, git) {
			t.Errorf("%s: branches %v, git branch -a --contains: %v", d.Subject, got, git)
		}
		if got, git := d.LandedOn.Tags, gitFirstTagsContaining(t, b.r, sha); !sameSet(got, git) {
			t.Errorf("%s: tags %v, first of git tag --contains: %v", d.Subject, got, git)
		}
		checkTagsByBranch(t, b.r, d)
	}
}

// TestLandedOnAgreesWithGit checks landed_on against git on every commit of the demo-like scenario (merges,
// deleted branches, several tips), tags added at a few places. Under -short TestBackportsLinkedAndLanded holds
// the same fields to git on its own history.
func TestLandedOnAgreesWithGit(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	s := newScenario(t)
	s.r.Git("tag", "t-merge1", s.sha["merge1"])
	s.r.Git("tag", "-a", "-m", "x", "t-squash", s.sha["squash"])
	s.r.Git("tag", "t-live", s.sha["live"])
	s.r.Git("tag", "t-after", s.sha["after"])
	res := s.find(t, s.r.Dir, "ENG-42")
	if len(res.Details) < 5 {
		t.Fatalf("only %d commits tied", len(res.Details))
	}
	for _, d := range res.Details {
		if got, git := d.LandedOn.Branches, gitBranchesContaining(t, s.r, d.SHA); !sameSet(got, git) {
			t.Errorf("%s: branches %v, git branch -a --contains: %v", d.Subject, got, git)
		}
		if got, git := d.LandedOn.Tags, gitFirstTagsContaining(t, s.r, d.SHA); !sameSet(got, git) {
			t.Errorf("%s: tags %v, first of git tag --contains: %v", d.Subject, got, git)
		}
		checkTagsByBranch(t, s.r, d)
		if got, want := str(d.PatchID), gitPatchID(t, s.r, d.SHA); got != want {
			t.Errorf("%s: patch_id %s, git says %s", d.Subject, got, want)
		}
	}
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func sameSet(a, b []string) bool {
	x, y := append([]string{}, a...), append([]string{}, b...)
	sort.Strings(x)
	sort.Strings(y)
	return reflect.DeepEqual(x, y) || len(x) == 0 && len(y) == 0
}

func gitPatchID(t *testing.T, r *gittest.Repo, sha string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", "git show "+sha+" | git patch-id --stable")
	cmd.Dir, cmd.Env = r.Dir, r.Env
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return id
}

// gitBranchesContaining is `git branch -a --contains` without the "* " marker and "HEAD -> " aliases.
func gitBranchesContaining(t *testing.T, r *gittest.Repo, sha string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(r.Git("branch", "-a", "--contains", sha), "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "* "))
		if l == "" || strings.Contains(l, " -> ") || strings.HasPrefix(l, "(") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// gitFirstTagsContaining is `git tag --contains` less every tag another of them (at another commit) is in;
// with merged, `git tag --merged <merged> --contains` less the same.
func gitFirstTagsContaining(t *testing.T, r *gittest.Repo, sha string, merged ...string) []string {
	t.Helper()
	args := []string{"tag", "--contains", sha}
	for _, m := range merged {
		args = append(args, "--merged", m)
	}
	tags := strings.Fields(r.Git(args...))
	var out []string
	for _, a := range tags {
		first := true
		for _, b := range tags {
			if r.Rev(a+"^{commit}") == r.Rev(b+"^{commit}") {
				continue
			}
			if _, err := r.GitErr("merge-base", "--is-ancestor", b, a); err == nil {
				first = false
				break
			}
		}
		if first {
			out = append(out, a)
		}
	}
	return out
}

// TestPatchIDCache: a second run reads patch ids from <common dir>/bernstein/patch-ids instead of diffing again and
// gives the same ids; a damaged cache is ignored and rewritten, never believed.
func TestPatchIDCache(t *testing.T) {
	t.Parallel()
	b := newBackports(t)
	s := &scenario{r: b.r}
	ids := func() map[string]string {
		out := map[string]string{}
		for _, d := range s.find(t, b.r.Dir, "ENG-42").Details {
			out[d.SHA] = str(d.PatchID)
		}
		return out
	}
	first := ids()
	path := filepath.Join(b.r.Dir, ".git", "bernstein", "patch-ids")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	if want := len(patchIDCacheMagic) + strings.Index(string(data[len(patchIDCacheMagic):]), "\n") + 1 + 3*patchIDRecord; len(data) != want {
		t.Errorf("cache is %d bytes, want %d (header and three records)", len(data), want)
	}
	if second := ids(); !reflect.DeepEqual(first, second) {
		t.Errorf("from the cache %v, computed %v", second, first)
	}
	// A damaged cache (cut mid-record) is not read.
	if err := os.WriteFile(path, data[:len(data)-7], 0o644); err != nil {
		t.Fatal(err)
	}
	if third := ids(); !reflect.DeepEqual(first, third) {
		t.Errorf("after damage %v, want %v", third, first)
	}
	if again, _ := os.ReadFile(path); len(again) != len(data) {
		t.Errorf("damaged cache not rewritten: %d bytes, want %d", len(again), len(data))
	}
}

func TestCherryPickedFrom(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		msg  string
		want []string
	}{
		{"Fix\n\nRefs: ENG-42", []string{}},
		{"Fix\n\n(cherry picked from commit ABCDEF1234567)\n", []string{"abcdef1234567"}},
		{"Fix\n\n  (cherry picked from commit abcdef1)  \r\n(cherry picked from commit 1234567)\n(cherry picked from commit abcdef1)",
			[]string{"abcdef1", "1234567"}},
		{"Fix (cherry picked from commit abcdef1)", []string{}},    // not a line of its own
		{"Fix\n\n(cherry picked from commit abc)", []string{}},     // too short to be a commit id
		{"Fix\n\n(Cherry picked from commit abcdef1)", []string{}}, // git writes it in lower case
	} {
		if got := cherryPickedFrom(c.msg); !reflect.DeepEqual(got, c.want) {
			t.Errorf("cherryPickedFrom(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

// checkTagsByBranch holds d's first_tags_by_branch against git: a key for every branch of landed_on, each the
// first of `git tag --merged <branch> --contains <sha>`.
func checkTagsByBranch(t *testing.T, r *gittest.Repo, d CommitDetail) {
	t.Helper()
	if len(d.LandedOn.FirstTagsByBranch) != len(d.LandedOn.Branches) {
		t.Errorf("%s: first_tags_by_branch %v, want a key for each of %v", d.Subject, d.LandedOn.FirstTagsByBranch, d.LandedOn.Branches)
	}
	for _, b := range d.LandedOn.Branches {
		got, ok := d.LandedOn.FirstTagsByBranch[b]
		if git := gitFirstTagsContaining(t, r, d.SHA, b); !ok || got == nil || !sameSet(got, git) {
			t.Errorf("%s on %s: first tags %v, first of git tag --merged %s --contains: %v", d.Subject, b, got, b, git)
		}
	}
}

// TestFirstTagsByBranch: issue 26 item 3. Kafka tags its release candidates on side commits off the release
// branches, so the tags that contain a fix are mostly on no branch: landed_on.tags (all branches at once) lists
// 3.3.0 for the trunk fix, while git tag --merged trunk --contains lists only trunk-nightly. first_tags_by_branch
// says it per branch, as git does.
func TestFirstTagsByBranch(t *testing.T) {
	t.Parallel()
	x := gittest.NewReleases(t)
	s := &scenario{r: x.Repo}
	res := s.find(t, x.Dir, "KAFKA-10199")
	by := map[string]CommitDetail{}
	for _, d := range res.Details {
		by[d.SHA] = d
		checkTagsByBranch(t, x.Repo, d)
		if got, git := d.LandedOn.Tags, gitFirstTagsContaining(t, x.Repo, d.SHA); !sameSet(got, git) {
			t.Errorf("%s: tags %v, first of git tag --contains: %v", d.Subject, got, git)
		}
	}
	want := map[string]LandedOn{
		x.Fix: {Branches: []string{"3.3", "trunk"}, Tags: []string{"3.3.0", "3.3.0-rc0", "trunk-nightly"},
			FirstTagsByBranch: map[string][]string{"3.3": {}, "trunk": {"trunk-nightly"}}},
		x.Backport: {Branches: []string{"3.2"}, Tags: []string{"3.2.0", "3.2.0-rc1", "3.2.1"},
			FirstTagsByBranch: map[string][]string{"3.2": {"3.2.1"}}},
		x.Later: {Branches: []string{"trunk"}, Tags: []string{"trunk-nightly"},
			FirstTagsByBranch: map[string][]string{"trunk": {"trunk-nightly"}}},
	}
	if len(res.Details) != len(want) {
		t.Fatalf("tied %d commits, want %d", len(res.Details), len(want))
	}
	for sha, w := range want {
		if d := by[sha]; d.LandedOn == nil || !reflect.DeepEqual(*d.LandedOn, w) {
			t.Errorf("%s: landed_on %+v, want %+v", d.Subject, d.LandedOn, w)
		}
	}
}

// TestPatchIDsToGroup: with PatchIDsToGroup only commits that change the same paths as another tied commit get
// a patch id (the fix, its clean backport and a later change to the same file), a commit whose paths no other
// shares gets none, and the changes are grouped as with every id made.
func TestPatchIDsToGroup(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Initial commit", map[string]string{"app.txt": lines(30, nil), "docs/a b.txt": "x\n", "docs/ab.txt": "x\n",
		"other.txt": "o\n"})
	r.Git("branch", "stable")
	fix := r.Commit("Fix the overflow\n\nRefs: ENG-42", map[string]string{"app.txt": lines(30, map[int]string{3: "fixed"})})
	docs := r.Commit("Document the fix\n\nRefs: ENG-42", map[string]string{"docs/a b.txt": "y\n"})
	again := r.Commit("Fix it better\n\nRefs: ENG-42", map[string]string{"app.txt": lines(30, map[int]string{3: "fixed", 9: "too"})})
	r.Git("checkout", "-q", "stable")
	r.Git("cherry-pick", "-x", fix)
	pick := r.Rev("HEAD")
	// Only whitespace tells this path from docs/a b.txt, and patch-id hashes lines without whitespace: the two
	// commits' ids are equal to git too, so both must be made.
	r.Commit("Document it on stable\n\nRefs: ENG-42", map[string]string{"docs/ab.txt": "y\n"})
	docs2 := r.Rev("HEAD")
	r.Commit("Tidy\n\nRefs: ENG-42", map[string]string{"other.txt": "p\n"})
	tidy := r.Rev("HEAD")
	r.Git("checkout", "-q", "main")

	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := ticket.Parse("github", "ENG-42")
	var changesOfAll []Change
	find := func(toGroup bool, caches ...bool) map[string]*string {
		res, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys, NoCaches: len(caches) == 0 || !caches[0],
			PatchIDsToGroup: toGroup})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]*string{}
		for _, d := range res.Details {
			ids[d.SHA] = d.PatchID
		}
		if got := fmt.Sprint(Changes(res.Details)); toGroup && got != fmt.Sprint(changesOfAll) {
			t.Errorf("changes with PatchIDsToGroup %s, with every id %s", got, fmt.Sprint(changesOfAll))
		}
		if !toGroup {
			changesOfAll = Changes(res.Details)
		}
		return ids
	}
	all := find(false)
	// Without caches, then writing the caches (patch-ids, patch-paths), then reading them: the same ids.
	for _, run := range []string{"no caches", "first run", "warm run"} {
		some := find(true, run != "no caches")
		for sha, id := range all {
			want := str(id)
			if sha == tidy {
				want = str(nil)
			}
			if got := str(some[sha]); got != want {
				t.Errorf("%s: %s: patch id with PatchIDsToGroup %s, want %s", run, sha[:7], got, want)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(repo.CommonDir, "bernstein", "patch-paths")); err != nil {
		t.Errorf("no patch-paths cache written: %v", err)
	}
	if str(all[fix]) != str(all[pick]) || str(all[docs]) != str(all[docs2]) || str(all[again]) == str(all[fix]) {
		t.Errorf("the scenario's ids: fix %s, pick %s, docs %s, docs2 %s, again %s", str(all[fix]), str(all[pick]),
			str(all[docs]), str(all[docs2]), str(all[again]))
	}
}

// TestPatchIDCacheFollowsGitsConfiguration: the patch-id cache is keyed on diff.renames and diff.renameLimit as
// the patches are made with them, from git's own reading of the configuration (the user's global file,
// includes, `git -c`). Keyed on .git/config alone, turning renames off in ~/.gitconfig kept serving the ids of
// the rename diffs, while `git patch-id` on git's format-patch gives the delete-and-add diff's.
func TestPatchIDCacheFollowsGitsConfiguration(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	var lines strings.Builder
	for i := range 40 {
		fmt.Fprintf(&lines, "line %d of a file long enough to be found renamed\n", i)
	}
	r.Commit("Add the file", map[string]string{"old.txt": lines.String()})
	r.Git("mv", "old.txt", "new.txt")
	r.Write("new.txt", lines.String()+"one more line\n")
	sha := r.Commit("Move the file\n\nRefs: ENG-42", nil)
	s := &scenario{r: r}
	home := strings.TrimPrefix(r.Getenv("HOME"), "")
	for _, renames := range []string{"true", "false", "true"} {
		if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[diff]\n\trenames = "+renames+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var got string
		for _, d := range s.find(t, r.Dir, "ENG-42").Details {
			if d.SHA == sha {
				got = str(d.PatchID)
			}
		}
		patch := r.Git("format-patch", "--stdout", "-1", sha)
		cmd := exec.Command("git", "patch-id", "--stable")
		cmd.Dir, cmd.Env, cmd.Stdin = r.Dir, r.Env, strings.NewReader(patch+"\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Fields(string(out))[0]; got != want {
			t.Errorf("diff.renames=%s in ~/.gitconfig: patch id %s, git patch-id gives %s", renames, got, want)
		}
	}
}
