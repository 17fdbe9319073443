package repocheck

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/prpatch"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// TestCheckPatchIDs: pull request #5 was reviewed on A, rebased onto a newer main (H, the same diff), given a
// rename (H2), and its base merged in (M). git/patchids/pr_5.json, as bundle --controls computes it, is held
// against the repository, against a clone that lacks A (a force push replaced it), and edited.
func TestCheckPatchIDs(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := gittest.New(t)
	r.Commit("init", map[string]string{"lib.go": "package lib\n\nfunc A() int { return 1 }\n", "README": "hello\nworld\nof\nlibraries\n"})
	r.Git("checkout", "-q", "-b", "topic")
	a := r.Commit("Fix A", map[string]string{"lib.go": "package lib\n\nfunc A() int { return 2 }\n"})
	r.Git("checkout", "-q", "main")
	r.Commit("Docs", map[string]string{"NOTES": "notes\n"})
	r.Git("checkout", "-q", "topic")
	r.Git("rebase", "-q", "main")
	h := r.Rev("HEAD")
	r.Git("mv", "README", "README.md")
	h2 := r.Commit("Rename the README", nil)
	r.Git("checkout", "-q", "main")
	base := r.Commit("More docs", map[string]string{"NEWS": "news\n"})
	r.Git("checkout", "-q", "topic")
	r.Git("merge", "-q", "--no-edit", "main")
	m := r.Rev("HEAD")
	r.Git("checkout", "-q", "main")
	r.Git("branch", "-q", "-D", "topic") // only the reflog keeps it
	r.Git("branch", "-q", "topic", m)

	// A clone has what its refs reach: not A, which only the rebase's reflog keeps.
	clone := filepath.Join(filepath.Dir(r.Dir), "clone")
	r.Git("clone", "-q", "--no-local", r.Dir, clone)

	payload := fmt.Sprintf(`{"number":5,"head":{"sha":%q},"base":{"sha":%q}}`, m, base)
	reviews := fmt.Sprintf(`[{"commit_id":%q},{"commit_id":%q},{"commit_id":%q},{"commit_id":%q}]`, a, h, h2, strings.Repeat("ab", 20))
	members := func(t *testing.T, dir string) map[string][]byte {
		repo, err := gitext.Discover(dir, r.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := prpatch.Members(repo, []prpatch.PR{{Number: 5, Payload: []byte(payload), Reviews: []byte(reviews)}}, time.Time{}, nil)
		if err != nil || len(ms) != 1 {
			t.Fatalf("%d members, %v", len(ms), err)
		}
		return map[string][]byte{ms[0].Name: ms[0].Data}
	}
	recorded := members(t, r.Dir)
	// Made where diff.renames is false: H2's diff is a deletion and an addition, not a rename.
	norenames := filepath.Join(filepath.Dir(r.Dir), "norenames")
	r.Git("clone", "-q", "--no-local", "--mirror", r.Dir, norenames)
	r.Git("-C", norenames, "config", "diff.renames", "false")
	// The reviews' A is not in this mirror either: drop it from the member, as if the bundler had it.
	other := members(t, norenames)
	const name = "git/patchids/pr_5.json"
	if string(other[name]) == string(recorded[name]) {
		t.Fatal("diff.renames=false gives the same member: the case below tests nothing")
	}
	var doc controls.PatchIDsDoc
	if err := json.Unmarshal(recorded[name], &doc); err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	for i, hd := range doc.Heads {
		at[hd.Commit] = i
	}
	id := func(sha string) string { return *doc.Heads[at[sha]].PatchID }
	edit := func(f func(heads []controls.PatchIDHead, d *controls.PatchIDsDoc)) map[string][]byte {
		var d controls.PatchIDsDoc
		json.Unmarshal(recorded[name], &d)
		f(d.Heads, &d)
		data, _ := json.Marshal(d)
		return map[string][]byte{name: data}
	}
	settings := func(renames, limit string) *discover.Discovery {
		return &discover.Discovery{DiffSettings: "diff.renames=" + renames + " diff.renameLimit=" + limit + " core.abbrev=\n"}
	}

	for _, tc := range []struct {
		name     string
		dir      string
		members  map[string][]byte
		disc     *discover.Discovery
		heads    int    // heads computed again and equal
		mismatch string // the one mismatch, when any
		notice   string // the one notice, when any
		limit    int    // the heads computed at most; 0: maxRecheckHeads
		over     string // the one unverifiable, when any
	}{
		{name: "the repository", dir: r.Dir, members: recorded, heads: 4},
		{name: "a clone that lacks the reviewed commit", dir: clone, members: recorded, heads: 3,
			notice: name + ": head " + a[:12] + ": unknown, unchecked: the bundle records fork point "},
		{name: "made under diff.renames=false", dir: r.Dir, members: other, heads: 3},
		{name: "the patch id of another head", dir: r.Dir, heads: 3,
			members:  edit(func(hs []controls.PatchIDHead, _ *controls.PatchIDsDoc) { id := id(a); hs[at[m]].PatchID = &id }),
			mismatch: name + ": head " + m[:12] + ": the bundle records patch id " + id(a) + " of the diff from its fork point " + base[:12] + ", this clone gives " + id(m)},
		{name: "another fork point", dir: r.Dir, heads: 3,
			members:  edit(func(hs []controls.PatchIDHead, _ *controls.PatchIDsDoc) { hs[at[h2]].ForkPoint = base }),
			mismatch: name + ": head " + h2[:12] + ": the bundle records fork point " + base[:12]},
		{name: "a patch id under another diff.renameLimit", dir: r.Dir, heads: 3, disc: settings("", "5"),
			members: edit(func(hs []controls.PatchIDHead, _ *controls.PatchIDsDoc) { hs[at[h]].PatchID = hs[at[h2]].PatchID }),
			notice:  name + ": head " + h[:12] + ": the bundle records patch id " + id(h2) + ", this clone gives " + id(h) + "; the bundle's diff settings"},
		{name: "a patch id under another diff.renames", dir: r.Dir, heads: 3, disc: settings("copies", ""),
			members:  edit(func(hs []controls.PatchIDHead, _ *controls.PatchIDsDoc) { hs[at[h]].PatchID = hs[at[h2]].PatchID }),
			mismatch: name + ": head " + h[:12] + ": the bundle records patch id " + id(h2)},
		{name: "an empty diff claimed", dir: r.Dir, heads: 3,
			members: edit(func(hs []controls.PatchIDHead, _ *controls.PatchIDsDoc) {
				hs[at[h]].PatchID, hs[at[h]].Why = nil, prpatch.EmptyDiff
			}),
			mismatch: name + ": head " + h[:12] + ": the bundle records patch id null"},
		{name: "past the check's budget", dir: r.Dir, members: recorded, limit: 2, heads: 2,
			over: name + ": head " + h[:12] + " and the 2 after it: past the check's budget of 2 heads computed again: not checked"},
		{name: "another pull request's number", dir: r.Dir,
			members:  edit(func(_ []controls.PatchIDHead, d *controls.PatchIDsDoc) { d.PR = 6 }),
			mismatch: name + ": it says it is for pull request #6, not #5"},
		{name: "a head twice", dir: r.Dir, heads: 4,
			members:  edit(func(hs []controls.PatchIDHead, d *controls.PatchIDsDoc) { d.Heads = append(hs, hs[0]) }),
			mismatch: name + `: head "` + m + `": not a full object id, or a head listed twice`},
		{name: "another version", dir: r.Dir,
			members: edit(func(_ []controls.PatchIDHead, d *controls.PatchIDsDoc) { d.V = 2 }),
			notice:  name + ": version 2, which this git-bernstein does not know"},
		{name: "another name", dir: r.Dir, members: map[string][]byte{"git/patchids/pr_05.json": recorded[name]},
			mismatch: "git/patchids/pr_05.json: bundle --controls writes only git/patchids/pr_<N>.json"},
		{name: "not JSON", dir: r.Dir, members: map[string][]byte{name: []byte("{")},
			mismatch: name + ": it is not what bundle --controls writes: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			repo, err := gitext.Discover(tc.dir, r.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			var res verify.RepoResult
			mismatch := func(format string, a ...any) { res.Mismatches = append(res.Mismatches, fmt.Sprintf(format, a...)) }
			limit := tc.limit
			if limit == 0 {
				limit = maxRecheckHeads
			}
			checkPatchIDs(repo, tc.members, tc.disc, limit, &res, mismatch)
			one := func(what string, got []string, want string) {
				if want == "" && len(got) > 0 || want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], want)) {
					t.Errorf("%s: %q, want one starting %q", what, got, want)
				}
			}
			one("mismatches", res.Mismatches, tc.mismatch)
			one("notices", res.Notices, tc.notice)
			one("unverifiable", res.Unverifiable, tc.over)
			if res.PatchIDHeads != tc.heads {
				t.Errorf("%d heads computed again and equal, want %d", res.PatchIDHeads, tc.heads)
			}
		})
	}
}
