package repocheck

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// checkComplete finds the ticket again in r with the rules and settings the bundle records (commits.json's
// discovery), walking from the tips it records, reading every message and diff from the objects (never the
// ticket index or the patch id cache), and holds the answer against the bundle:
//
//   - a commit tied there that the bundle lacks was reachable when the bundle was made (it is below a recorded
//     tip): FAILED, the bundle is incomplete;
//   - a commit the bundle ties that is not tied there, a matched_by, patch_id or landed_on other than the
//     commit's own: FAILED, the bundle claims what the repository contradicts;
//   - a commit tied at r's refs now but not at the recorded state: a notice (a later commit or ref).
//
// What cannot be judged is a notice, never a failure: tips or the base branch the clone lacks (only history
// below the tips it has is searched, and landed_on only for their refs), a shallow clone on either side, rules
// of another version, patch ids of binary diffs (their abbreviated object names depend on the repository's
// object count) or under other diff settings, and bundles that record no discovery.
func checkComplete(r *gitext.Repo, doc *discover.Commits, res *verify.RepoResult, mismatch func(string, ...any)) {
	notice := func(format string, a ...any) { res.Notices = append(res.Notices, fmt.Sprintf(format, a...)) }
	d := doc.Discovery
	if d == nil || doc.Details == nil {
		notice("git/commits.json records no discovery settings (a bundle made before git-bernstein recorded them, or upstream's): " +
			"whether it lacks a commit of the ticket cannot be checked; make the bundle again with this version to have that checked")
		return
	}
	tk, err := ticket.Parse(doc.Tracker, doc.TicketID)
	if err != nil {
		mismatch("git/commits.json: %v", err)
		return
	}
	if tk.Numeric() && d.GitHubRepo != "" {
		tk = tk.InRepo(d.GitHubRepo)
	}

	// Soft: a difference may come from something other than the bundle, so it is a notice, not a failure.
	var soft []string
	if d.Rules != discover.RulesVersion {
		soft = append(soft, fmt.Sprintf("the bundle was found with matching rules version %d, this git-bernstein has version %d", d.Rules, discover.RulesVersion))
	}
	if len(d.Shallow) > 0 {
		soft = append(soft, fmt.Sprintf("the repository the bundle was made in was a shallow clone (%s), so history beyond it was never searched", plural.Count(len(d.Shallow), "shallow commit")))
	}
	if len(r.ShallowCommits()) > 0 {
		soft = append(soft, "this clone is shallow, so its history stops at the shallow boundary")
	}

	// The recorded state: every recorded tip the clone has, under its recorded name.
	names := make([]string, 0, len(d.Tips))
	for name := range d.Tips {
		names = append(names, name)
	}
	sort.Slice(names, func(a, b int) bool { // HEAD first, as the repository lists its tips
		if (names[a] == "HEAD") != (names[b] == "HEAD") {
			return names[a] == "HEAD"
		}
		return names[a] < names[b]
	})
	var tips []gitext.Tip
	var lacking []string
	present := map[string]bool{} // ref name → its recorded tip is in the clone
	tipCommits := map[gitext.Hash]bool{}
	for _, name := range names {
		h, ok, err := commitIn(r, d.Tips[name])
		if err != nil {
			res.Err = err
			return
		}
		if !ok {
			lacking = append(lacking, fmt.Sprintf("%s at %s", name, short(d.Tips[name])))
			continue
		}
		present[name] = true
		tipCommits[h] = true
		tips = append(tips, gitext.Tip{Name: gitext.RefName(name), Commit: h})
	}
	if len(lacking) > 0 {
		notice("the bundle records %s that this clone does not have (%s): commits only they reach were not searched, and landed_on is checked only for the refs it has; fetch them (or give the repository the bundle was made in) to check all",
			plural.Count(len(lacking), "tip"), listSome(lacking))
	}
	base := &gitext.Tip{} // none: the branch source ties nothing
	baseOK := true
	if d.BaseBranch.Ref != "" {
		h, ok, err := commitIn(r, d.BaseBranch.SHA)
		switch {
		case err != nil:
			res.Err = err
			return
		case ok && tipCommits[h]:
			base = &gitext.Tip{Name: gitext.RefName(d.BaseBranch.Ref), Commit: h}
		default:
			baseOK = false
			notice("the base branch the bundle records (%s at %s) is not among the tips this clone has, so the branch source was not applied again",
				d.BaseBranch.Ref, short(d.BaseBranch.SHA))
		}
	}
	coreAbbrev := ""
	if m := coreAbbrevSetting().FindStringSubmatch(d.DiffSettings); m != nil {
		coreAbbrev = m[1]
	}
	opts := discover.Options{
		Ticket:      tk,
		Sources:     d.Sources,
		TrailerKeys: d.TrailerKeys,
		Trailers:    gitext.TrailerOptions{Separators: d.TrailerSeparators, Configured: d.TrailerConfigured},
		BaseBranch:  d.BaseBranch.Configured,
		CoreAbbrev:  coreAbbrev,
		Tips:        tips,
		Base:        base,
		NoCaches:    true,
	}
	if tips == nil {
		opts.Tips = []gitext.Tip{}
	}
	then, err := discover.Find(r, opts)
	if err != nil {
		res.Err = fmt.Errorf("find %s again at the state the bundle records: %w", doc.TicketID, err)
		return
	}
	// Exact: the clone has the whole recorded state and the rules are ours, so every difference is the bundle's.
	exact := len(soft) == 0 && len(lacking) == 0 && baseOK
	judge := mismatch
	if len(soft) > 0 {
		judge = func(format string, a ...any) {
			notice(format+" (not held against the bundle: %s)", append(a, strings.Join(soft, "; "))...)
		}
	}

	inBundle := map[string]*discover.CommitDetail{}
	for i := range doc.Details {
		if inBundle[doc.Details[i].SHA] == nil {
			inBundle[doc.Details[i].SHA] = &doc.Details[i]
		}
	}
	found := map[string]*discover.CommitDetail{}
	for i := range then.Details {
		found[then.Details[i].SHA] = &then.Details[i]
	}
	lacks := 0
	for _, rd := range then.Details {
		if inBundle[rd.SHA] != nil {
			continue
		}
		lacks++
		judge("%s (%q) is tied to %s (%s) in the history below the tips the bundle records, so it was reachable when the bundle was made, but the bundle lacks it: "+
			"the bundle is incomplete (a tampered ticket index where it was made?); make it again after deleting <git dir>/bernstein/index and patch-ids, and verify the new one",
			rd.SHA, rd.Subject, doc.TicketID, strings.Join(rd.MatchedBy, ", "))
	}
	idsUnknown := slices.ContainsFunc(then.Warnings, func(w string) bool { return strings.HasPrefix(w, "no patch id for ") })
	settingsDiffer := d.DiffSettings != discover.DiffSettings(r, coreAbbrev)
	for _, sha := range doc.Commits {
		bd := inBundle[sha]
		if bd == nil {
			continue // said by the details checks
		}
		if _, ok, _ := commitIn(r, sha); !ok {
			continue // not in the clone: Check reports it missing
		}
		rd := found[sha]
		if rd == nil {
			if exact {
				mismatch("%s: git/commits.json ties it to %s (%s), but finding the ticket again at the state the bundle records does not: the bundle claims a tie the repository does not make",
					short(sha), doc.TicketID, strings.Join(bd.MatchedBy, ", "))
			} else {
				notice("%s: git/commits.json ties it to %s (%s), but finding the ticket again here does not (see the notices above for what this clone lacks)",
					short(sha), doc.TicketID, strings.Join(bd.MatchedBy, ", "))
			}
			continue
		}
		if !slices.Equal(bd.MatchedBy, rd.MatchedBy) {
			if exact {
				mismatch("%s: git/commits.json says it matched by %s, finding the ticket again gives %s", short(sha), strings.Join(bd.MatchedBy, ", "), strings.Join(rd.MatchedBy, ", "))
			} else if missingReasons(bd.MatchedBy, rd.MatchedBy) {
				judge("%s: git/commits.json says it matched by %s, finding the ticket again gives %s", short(sha), strings.Join(bd.MatchedBy, ", "), strings.Join(rd.MatchedBy, ", "))
			}
		}
		if bd.LandedOn == nil {
			continue // made before patch_id and landed_on were recorded
		}
		if !samePatchID(bd.PatchID, rd.PatchID) {
			switch {
			case idsUnknown && rd.PatchID == nil:
				notice("%s: its patch id could not be computed here (%s), so the bundle's patch_id is unchecked", short(sha), firstWith(then.Warnings, "no patch id for "))
			case settingsDiffer:
				notice("%s: git/commits.json says its patch_id is %s, its diff here gives %s; the bundle's diff settings (%s) are not this clone's (%s), so this is not held against it",
					short(sha), idText(bd.PatchID), idText(rd.PatchID), strings.TrimSpace(d.DiffSettings), strings.TrimSpace(discover.DiffSettings(r, coreAbbrev)))
			case touchesBinary(r, sha):
				notice("%s: git/commits.json says its patch_id is %s, its diff here gives %s; it changes a binary file, whose patch id hashes object names abbreviated to a length that depends on the repository, so this is not held against it",
					short(sha), idText(bd.PatchID), idText(rd.PatchID))
			default:
				judge("%s: git/commits.json says its patch_id is %s, but its diff gives %s: a patch id that is not its diff's (a poisoned patch id cache where the bundle was made?) "+
					"groups commits that are not one change; make the bundle again after deleting <git dir>/bernstein/patch-ids", short(sha), idText(bd.PatchID), idText(rd.PatchID))
			}
		}
		if rd.LandedOn == nil {
			continue
		}
		if len(lacking) == 0 && len(r.ShallowCommits()) == 0 {
			if !slices.Equal(bd.LandedOn.Branches, rd.LandedOn.Branches) || !slices.Equal(bd.LandedOn.Tags, rd.LandedOn.Tags) {
				judge("%s: git/commits.json says it landed on branches [%s] and first tags [%s], the recorded refs give [%s] and [%s]", short(sha),
					strings.Join(bd.LandedOn.Branches, " "), strings.Join(bd.LandedOn.Tags, " "), strings.Join(rd.LandedOn.Branches, " "), strings.Join(rd.LandedOn.Tags, " "))
			} else if bd.LandedOn.FirstTagsByBranch != nil { // absent in bundles made before it
				for _, b := range bd.LandedOn.Branches {
					if got, want := bd.LandedOn.FirstTagsByBranch[b], rd.LandedOn.FirstTagsByBranch[b]; !slices.Equal(got, want) {
						judge("%s: git/commits.json says its first tags on %s are [%s], the recorded refs give [%s]", short(sha), b,
							strings.Join(got, " "), strings.Join(want, " "))
					}
				}
			}
			continue
		}
		// Only the branches whose recorded tip the clone has can be judged; tags are unchecked, as whether a tag
		// is a first one depends on the tags the clone lacks.
		for _, b := range bd.LandedOn.Branches {
			if present[branchRef(b)] && !slices.Contains(rd.LandedOn.Branches, b) {
				judge("%s: git/commits.json says it landed on %s, but the tip the bundle records for that branch does not contain it", short(sha), b)
			}
		}
		for _, b := range rd.LandedOn.Branches {
			if !slices.Contains(bd.LandedOn.Branches, b) {
				judge("%s: the tip the bundle records for %s contains it, but git/commits.json does not say it landed there", short(sha), b)
			}
		}
	}

	// Later ties: at the clone's refs now, commits the bundle lacks that the recorded state did not tie.
	later, err := laterTies(r, opts, d)
	if err != nil {
		res.Err = err
		return
	}
	if later != nil {
		for _, ld := range later.Details {
			if inBundle[ld.SHA] != nil || found[ld.SHA] != nil {
				continue
			}
			notice("%s (%q) is tied to %s (%s) at this clone's refs now, but not at the state the bundle records: a later commit or ref, which a new bundle would include",
				ld.SHA, ld.Subject, doc.TicketID, strings.Join(ld.MatchedBy, ", "))
		}
	}
	what := "none tied since"
	if later == nil {
		what = "its refs are the bundle's, so none is later"
	}
	switch {
	case exact && lacks == 0:
		res.Complete = fmt.Sprintf("found %s again at the %s the bundle records, from the objects alone (no ticket index, no cache): the bundle lacks no commit tied there, "+
			"and its matched_by, patch_id and landed_on are the repository's (%s)", doc.TicketID, plural.Count(len(tips), "tip"), what)
	case lacks == 0:
		res.Complete = fmt.Sprintf("found %s again at the %s of the %d the bundle records that this clone has: it lacks no commit tied there; not all could be checked (below)",
			doc.TicketID, plural.Count(len(tips), "tip"), len(d.Tips))
	}
}

// laterTies finds the ticket at the clone's own refs; nil when that cannot tie anything the recorded state did
// not: every ref of the clone is a recorded tip, at the recorded commit, and the base branch resolves to the
// recorded one (a clone with fewer refs walks part of the same history), which spares a second walk of it all.
func laterTies(r *gitext.Repo, opts discover.Options, d *discover.Discovery) (*discover.Commits, error) {
	now, err := r.HistoryTips()
	if err != nil {
		return nil, err
	}
	same := true
	for _, t := range now {
		same = same && d.Tips[t.Name.String()] == t.Commit.String()
	}
	if name, h, ok := r.BaseBranch(opts.BaseBranch); ok {
		same = same && name.String() == d.BaseBranch.Ref && h.String() == d.BaseBranch.SHA
	} else {
		same = same && d.BaseBranch.Ref == ""
	}
	if same {
		return nil, nil
	}
	opts.Tips, opts.Base = nil, nil
	later, err := discover.Find(r, opts)
	if err != nil {
		return nil, fmt.Errorf("find the ticket at this clone's refs: %w", err)
	}
	return later, nil
}

var coreAbbrevSetting = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`core\.abbrev=(\S*)`) })

// commitIn says whether the clone has sha as a commit. A malformed sha is not there.
func commitIn(r *gitext.Repo, sha string) (gitext.Hash, bool, error) {
	if len(sha) != 40 || !gitext.IsHash(sha) || strings.ToLower(sha) != sha {
		return gitext.Hash{}, false, nil
	}
	h := gitext.NewHash(sha)
	typ, _, err := r.ReadObject(h)
	switch {
	case errors.Is(err, gitext.ErrObjectNotFound):
		return h, false, nil
	case err != nil:
		return h, false, err
	}
	return h, typ == gitext.CommitObject, nil
}

// branchRef is the ref of a branch as landed_on names it (main, remotes/origin/main).
func branchRef(b string) string {
	if rest, ok := strings.CutPrefix(b, "remotes/"); ok {
		return "refs/remotes/" + rest
	}
	return "refs/heads/" + b
}

// missingReasons says whether found has a reason the bundle's list lacks: with part of the recorded state,
// rediscovery ties by a subset of the reasons, never by one the bundle did not see.
func missingReasons(bundle, found []string) bool {
	for _, f := range found {
		if !slices.Contains(bundle, f) {
			return true
		}
	}
	return false
}

// touchesBinary says whether the commit's diff has a binary file.
func touchesBinary(r *gitext.Repo, sha string) bool {
	var buf bytes.Buffer
	if err := patch.NewDiffer(r).WriteDiff(&buf, gitext.NewHash(sha)); err != nil {
		return true // cannot tell: do not hold it against the bundle
	}
	return bytes.Contains(buf.Bytes(), []byte("\nGIT binary patch")) || bytes.Contains(buf.Bytes(), []byte("\nBinary files "))
}

func samePatchID(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func idText(id *string) string {
	if id == nil {
		return "null"
	}
	return *id
}

func firstWith(list []string, prefix string) string {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return s
		}
	}
	return ""
}

// listSome names the first few items and how many more.
func listSome(items []string) string {
	const show = 5
	if len(items) <= show {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:show], ", "), len(items)-show)
}
