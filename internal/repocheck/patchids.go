package repocheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/prpatch"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// maxPatchIDHeads is the most heads bundle --controls writes for one pull request (package prpatch).
const maxPatchIDHeads = 50

// maxRecheckHeads bounds the heads computed again over all members (each a merge base and a whole diff: some
// 0.6 s for a 600-file diff in apache/kafka); past it the check is unusable, not failed.
const maxRecheckHeads = 1000

var patchIDsMember = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^git/patchids/pr_([1-9][0-9]{0,9})\.json$`) })

// checkPatchIDs computes each head of each git/patchids/pr_<N>.json again in r, as bundle --controls did
// (prpatch.Head: the fork point from the member's base, the patch id of fork point..head), and holds the
// member to the answer. audit's approved-final-head passes an approval across a push when the two commits'
// patch ids are equal, and only the bundler's git computed them: this is where they meet a clone the auditor
// trusts.
//
//   - a fork point or patch id other than the clone's: FAILED (a member that is not what git computes: an
//     edited member, or a bundler's clone or git-bernstein that lied), naming the member and the head;
//   - a head, or the base, that the clone lacks (a commit a force push replaced is often in no clone but its
//     pusher's), or that shares no history with the base here (a shallow clone): a notice, the entry unchecked;
//   - a patch id that another diff.renames (true, false, copies) reproduces: passed; one that differs still
//     where commits.json's discovery.diff_settings records another diff.renameLimit than this clone's: a
//     notice (the ids depend on it, and on diff attributes, which nothing records);
//   - a member that does not read as bundle --controls writes it (another name, another pull request's
//     number, an id that is not one, a head twice, more than 50 heads): FAILED; another "v": a notice.
//
// An entry with no patch id and no fork point (the bundler's clone lacked the commit) claims nothing, and is
// not checked. At most limit heads are computed (maxRecheckHeads); the rest are unverifiable.
func checkPatchIDs(r *gitext.Repo, members map[string][]byte, disc *discover.Discovery, limit int, res *verify.RepoResult, mismatch func(string, ...any)) {
	notice := func(format string, a ...any) { res.Notices = append(res.Notices, fmt.Sprintf(format, a...)) }
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names)
	differ := patch.NewDiffer(r)
	computed := 0
	var others []*patch.Differ // under each diff.renames, made when an id differs
	for _, name := range names {
		m := patchIDsMember().FindStringSubmatch(name)
		if m == nil {
			mismatch("%s: bundle --controls writes only git/patchids/pr_<N>.json in git/patchids/", name)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		var doc controls.PatchIDsDoc
		if err := json.Unmarshal(members[name], &doc); err != nil {
			mismatch("%s: it is not what bundle --controls writes: %v", name, err)
			continue
		}
		switch {
		case doc.V != 1:
			notice("%s: version %d, which this git-bernstein does not know (it writes 1): its patch ids are unchecked", name, doc.V)
			continue
		case doc.PR != n:
			mismatch("%s: it says it is for pull request #%d, not #%d: bundle --controls names each member for its pull request", name, doc.PR, n)
			continue
		case !controls.IsObjectID(doc.Base):
			mismatch("%s: its base %q is not a full object id", name, clip([]byte(doc.Base)))
			continue
		case len(doc.Heads) > maxPatchIDHeads:
			mismatch("%s: %d heads, more than the %d bundle --controls computes for one pull request", name, len(doc.Heads), maxPatchIDHeads)
			continue
		}
		checked, cut := 0, false
		seen := map[string]bool{}
		for i, rec := range doc.Heads {
			if !controls.IsObjectID(rec.Commit) || seen[rec.Commit] {
				mismatch("%s: head %q: not a full object id, or a head listed twice, which bundle --controls does not write", name, clip([]byte(rec.Commit)))
				continue
			}
			seen[rec.Commit] = true
			if rec.ForkPoint == "" && rec.PatchID == nil {
				continue // the bundler could not compute it: nothing is claimed
			}
			if computed == limit {
				res.Unverifiable = append(res.Unverifiable, fmt.Sprintf("%s: head %s and the %d after it: past the check's budget of %d heads computed again: not checked",
					name, short(rec.Commit), len(doc.Heads)-i-1, limit))
				cut = true
				break
			}
			computed++
			got, known := prpatch.Head(r, differ, doc.Base, rec.Commit, rec.ForkPoint)
			if !known {
				notice("%s: head %s: unknown, unchecked: the bundle records fork point %s and patch id %s, but %s",
					name, short(rec.Commit), short(rec.ForkPoint), shownID(rec.PatchID), strings.Replace(got.Why, "the bundler's clone", "this clone", 1))
				continue
			}
			if got.ForkPoint != rec.ForkPoint {
				mismatch("%s: head %s: the bundle records fork point %s and patch id %s, this clone gives fork point %s "+
					"(git merge-base of it and the base %s) and patch id %s: "+
					"the member is not what git computes, and audit's approved-final-head trusts it", name, short(rec.Commit), short(rec.ForkPoint),
					shownID(rec.PatchID), short(got.ForkPoint), short(doc.Base), idText(got.PatchID))
				continue
			}
			if samePatchID(got.PatchID, rec.PatchID) {
				checked++
				continue
			}
			// Another diff.renames where the bundle was made writes another diff, and so another id.
			if others == nil {
				for _, v := range renameSettings {
					others = append(others, patch.NewDiffer(r, patch.WithRenames(v)))
				}
			}
			if slices.ContainsFunc(others, func(d *patch.Differ) bool {
				alt, ok := prpatch.Head(r, d, doc.Base, rec.Commit, rec.ForkPoint)
				return ok && samePatchID(alt.PatchID, rec.PatchID)
			}) {
				checked++
				continue
			}
			if here := discover.DiffSettings(r, ""); disc != nil && !sameRenameLimit(disc.DiffSettings, here) {
				notice("%s: head %s: the bundle records patch id %s, this clone gives %s; the bundle's diff settings (%s) "+
					"are not this clone's (%s), so this is not held against it",
					name, short(rec.Commit), shownID(rec.PatchID), idText(got.PatchID), strings.TrimSpace(disc.DiffSettings), strings.TrimSpace(here))
				continue
			}
			mismatch("%s: head %s: the bundle records patch id %s of the diff from its fork point %s, this clone gives %s: "+
				"the member is not what git computes, and audit's approved-final-head trusts it to tell a push that kept the approved diff from one that changed it",
				name, short(rec.Commit), shownID(rec.PatchID), short(rec.ForkPoint), idText(got.PatchID))
		}
		if !cut {
			res.PatchIDMembers++
		}
		res.PatchIDHeads += checked
	}
}

// shownID is a recorded patch id as a message shows it: clipped, as the member is hostile input.
func shownID(id *string) string {
	if id == nil {
		return "null"
	}
	return clip([]byte(*id))
}

// sameRenameLimit says whether two discovery.diff_settings have the same diff.renameLimit: the one setting they
// record that a tree diff depends on and the recheck does not try (each diff.renames is tried; core.abbrev
// changes no full-id patch id).
func sameRenameLimit(a, b string) bool {
	la, lb := renameLimitSetting().FindStringSubmatch(a), renameLimitSetting().FindStringSubmatch(b)
	return (la == nil) == (lb == nil) && (la == nil || la[1] == lb[1])
}

var renameLimitSetting = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`diff\.renameLimit=(\S*)`) })
