package controls

import (
	"fmt"
	"strings"
	"time"
)

// arrival is how a tied commit reached its branch.
type arrival struct {
	pr  *pull
	how string // "merge", "squash", "merge queue", "merge (one of its commits)", "rebase (patch id)", …
}

// push is a tied commit that reached a protected branch without a pull request.
type push struct {
	sha, branch string
	evidence    Evidence
}

// arrivalOf finds the merged pull request a tied commit came through.
func (a *audit) arrivalOf(c commitRef) *arrival {
	for _, p := range a.merged() {
		if c.d.SHA == p.mergeSHA() {
			switch {
			case p.mergeQueue():
				return &arrival{p, "merge queue"}
			case len(c.d.Parents) > 1:
				return &arrival{p, "merge"}
			}
			return &arrival{p, "squash or rebase (its merge_commit_sha)"}
		}
	}
	for _, p := range a.merged() {
		for _, pc := range p.commits {
			if pc.SHA == c.d.SHA {
				return &arrival{p, "merge (one of its commits)"}
			}
		}
	}
	// Rebase merge: GitHub writes new commits with the same changes, author and author date.
	patchOf := map[string]string{}
	for _, t := range a.tied() {
		if t.d.PatchID != nil {
			patchOf[t.d.SHA] = *t.d.PatchID
		}
	}
	for _, p := range a.merged() {
		for _, pc := range p.commits {
			if id, ok := patchOf[pc.SHA]; ok && c.d.PatchID != nil && *c.d.PatchID == id {
				return &arrival{p, "rebase (same patch id as " + short(pc.SHA) + ")"}
			}
		}
	}
	for _, p := range a.merged() {
		for _, pc := range p.commits {
			if sameAuthorship(c, pc) {
				return &arrival{p, "rebase (same author, author date and subject as " + short(pc.SHA) + ")"}
			}
		}
	}
	return nil
}

func sameAuthorship(c commitRef, pc ghCommit) bool {
	t1, err1 := time.Parse(time.RFC3339, c.d.Author.Date)
	t2, err2 := time.Parse(time.RFC3339, pc.Commit.Author.Date)
	return err1 == nil && err2 == nil && t1.Equal(t2) && c.d.Author.Email == pc.Commit.Author.Email &&
		c.d.Subject == subjectLine(pc.Commit.Message)
}

// undecided says why a tied commit no merged pull request brought cannot be called a direct push: the bundle
// has no pull request evidence at all, or a merged pull request's commits were not captured (it may be one of
// them). "" when it can.
func (a *audit) undecided() string {
	has := false
	for name := range a.in.Members {
		if strings.HasPrefix(name, "pr/") {
			has = true
			break
		}
	}
	if !has {
		return "the bundle carries no pull request evidence (made with --no-pr, or GitHub could not be asked), so how it reached the branch is not known"
	}
	for _, p := range a.merged() {
		if p.comErr != "" {
			return fmt.Sprintf("no merged pull request's merge commit or commits is it, but %s: it may be one of #%d's", p.comErr, p.n)
		}
	}
	return ""
}

// directPushes are the tied commits on a protected branch that no merged pull request brought, when that can
// be told (undecided).
func (a *audit) directPushes() []push {
	if a.undecided() != "" {
		return nil
	}
	var out []push
	for _, c := range a.tied() {
		b, ok := a.protectedBranch(c.d)
		if !ok || b == "" || a.arrivalOf(c) != nil {
			continue
		}
		out = append(out, push{sha: c.d.SHA, branch: b, evidence: Evidence{Member: "git/commits.json", Pointer: pointer("details", c.i, "landed_on", "branches"),
			Who: c.d.Committer.Name + " <" + c.d.Committer.Email + ">", Commit: c.d.SHA, When: c.d.Committer.Date,
			What: fmt.Sprintf("commit %s (%q) is on %s, and no merged pull request of the bundle brought it", short(c.d.SHA), c.d.Subject, b)}})
	}
	return out
}

func (a *audit) reachedByPR() []Outcome {
	var out []Outcome
	if a.commits == nil {
		return []Outcome{{Control: ReachedByPR, Subject: "ticket", Status: Unknown, Detail: "git/commits.json is not in the bundle or does not read"}}
	}
	pushes := map[string]push{}
	for _, p := range a.directPushes() {
		pushes[p.sha] = p
	}
	for _, c := range a.tied() {
		o := Outcome{Control: ReachedByPR, Subject: "commit " + c.d.SHA, Commit: c.d.SHA}
		b, ok := a.protectedBranch(c.d)
		switch {
		case !ok:
			o.Status, o.Detail = Unknown, "git/commits.json does not say where the commit landed (made before landed_on existed)"
		case b == "":
			continue // not on a protected branch: nothing to control
		case pushes[c.d.SHA].sha != "":
			p := pushes[c.d.SHA]
			o.Status, o.Detail, o.Evidence = Exception, "direct push to "+b+": no merged pull request brought it", []Evidence{p.evidence}
		case a.arrivalOf(c) == nil:
			o.Status, o.Detail = Unknown, "on "+b+"; "+a.undecided()
		default:
			arr := a.arrivalOf(c)
			o.PR = arr.pr.n
			o.Status, o.Detail = Pass, fmt.Sprintf("on %s through %s (%s), merged %s", b, arr.pr.subject(), arr.how, arr.pr.mergedAt())
		}
		out = append(out, o)
	}
	return out
}
