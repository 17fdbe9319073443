package controls

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/commitsjson"
	"github.com/git-bernstein/git-bernstein/internal/policy"
)

// rulesOf is a branch's captured rules; rules is nil and why says why when they are not known.
type rulesOf struct {
	rules []ghRule
	why   string
}

func (a *audit) rules(branch string) rulesOf {
	var r []ghRule
	if why := a.read(RulesName(branch), &r); why != "" {
		return rulesOf{why: why}
	}
	if r == nil {
		r = []ghRule{}
	}
	return rulesOf{rules: r}
}

// protectionOf is a branch's captured protection; p is nil and why says why when it is not known or readable.
type protectionOf struct {
	p   *ghProtection
	why string
}

func (a *audit) protection(branch string) protectionOf {
	var p ghProtection
	name := ProtectionName(branch)
	if why := a.read(name, &p); why != "" {
		return protectionOf{why: why}
	}
	if p.NotReadable != 0 {
		return protectionOf{why: fmt.Sprintf("the protection of %s was not readable with the bundler's token (GitHub answered %d: %s; %s)", branch, p.NotReadable, p.Message, name)}
	}
	return protectionOf{p: &p}
}

// protects says whether a branch as landed_on names it is protected: the policy's protected_branches, else the
// merged pull requests' base branches and the ticket's base branch.
func (a *audit) protects(branch string) bool {
	if len(a.pol.ProtectedBranches) > 0 {
		return a.pol.Protects(branch)
	}
	b := policy.ShortBranch(branch)
	for _, p := range a.prs {
		if p.p.Base.Ref != "" && p.p.Base.Ref == b {
			return true
		}
	}
	if a.commits != nil && a.commits.Discovery != nil {
		bb := a.commits.Discovery.BaseBranch
		for _, n := range []string{bb.Configured, bb.Ref} {
			if n != "" && policy.ShortBranch(n) == b {
				return true
			}
		}
	}
	return false
}

// commitRef is a tied commit with where it sits in git/commits.json.
type commitRef struct {
	i int
	d commitsjson.CommitDetail
}

// protectedBranch is the first protected branch the commit landed on; "" if none; ok is false when
// commits.json does not say where it landed.
func (a *audit) protectedBranch(d commitsjson.CommitDetail) (string, bool) {
	if d.LandedOn == nil {
		return "", false
	}
	for _, b := range d.LandedOn.Branches {
		if a.protects(b) {
			return policy.ShortBranch(b), true
		}
	}
	return "", true
}

// tied lists git/commits.json's details.
func (a *audit) tied() []commitRef {
	if a.commits == nil {
		return nil
	}
	out := make([]commitRef, len(a.commits.Details))
	for i, d := range a.commits.Details {
		out[i] = commitRef{i, d}
	}
	return out
}

func subjectLine(msg string) string {
	s, _, _ := strings.Cut(msg, "\n")
	return strings.TrimSpace(s)
}
