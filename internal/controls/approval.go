package controls

import (
	"fmt"
	"strconv"
	"strings"
)

// approvalSet is what independent-approval found for one pull request.
type approvalSet struct {
	required     int
	requiredFrom string
	counted      []int      // indexes into reviews: the approvals that count
	refused      []Evidence // approvals that do not count, each with why
	standing     []Evidence // CHANGES_REQUESTED still standing at the merge
	unknown      string     // why nothing can be said
}

// people are the identities that may not approve a pull request, each with why.
type people struct {
	ids    map[int64]string
	logins map[string]string
	emails map[string]string
}

func newPeople() *people {
	return &people{ids: map[int64]string{}, logins: map[string]string{}, emails: map[string]string{}}
}

func (pp *people) addUser(u *ghUser, why string) {
	if u == nil {
		return
	}
	if _, ok := pp.ids[u.ID]; !ok && u.ID != 0 {
		pp.ids[u.ID] = why
	}
	if l := strings.ToLower(u.Login); l != "" {
		if _, ok := pp.logins[l]; !ok {
			pp.logins[l] = why
		}
	}
}

func (pp *people) addEmail(email, why string) {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" {
		return
	}
	if _, ok := pp.emails[email]; !ok {
		pp.emails[email] = why
	}
	if login, id := noreplyLogin(email); login != "" {
		if _, ok := pp.logins[login]; !ok {
			pp.logins[login] = why
		}
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			if _, ok := pp.ids[n]; !ok {
				pp.ids[n] = why
			}
		}
	}
}

// why returns why u may not approve, or "".
func (pp *people) why(u *ghUser) string {
	if u == nil {
		return ""
	}
	if w, ok := pp.ids[u.ID]; ok && u.ID != 0 {
		return w
	}
	return pp.logins[strings.ToLower(u.Login)]
}

// webFlow is GitHub's committer for commits made in its web interface and merges: not a person who wrote code.
func webFlow(u *ghUser, email string) bool {
	return (u != nil && strings.EqualFold(u.Login, "web-flow")) || strings.EqualFold(email, "noreply@github.com")
}

// authors are the people who wrote the pull request: its author, its commits' authors and committers and
// co-authors, and whoever force-pushed its head.
func (p *pull) authors() *people {
	pp := newPeople()
	pp.addUser(p.p.User, "opened the pull request")
	for _, c := range p.commits {
		what := "is the author of commit " + short(c.SHA)
		pp.addUser(c.Author, what)
		pp.addEmail(c.Commit.Author.Email, what)
		if !webFlow(c.Committer, c.Commit.Committer.Email) {
			what := "is the committer of commit " + short(c.SHA)
			pp.addUser(c.Committer, what)
			pp.addEmail(c.Commit.Committer.Email, what)
		}
		for _, v := range trailers(c.Commit.Message, "Co-authored-by") {
			_, email := splitIdent(v)
			pp.addEmail(email, "is named in Co-authored-by of commit "+short(c.SHA))
		}
	}
	for _, e := range p.timeline {
		if e.Event == "head_ref_force_pushed" {
			pp.addUser(e.Actor, "force-pushed the head at "+e.CreatedAt)
		}
	}
	return pp
}

// requiredApprovals is the policy's count, else the captured rules' and protection's (the larger), else 1.
func (a *audit) requiredApprovals(p *pull) (int, string) {
	if a.pol.RequiredApprovals > 0 {
		return a.pol.RequiredApprovals, "the policy"
	}
	n, from := 0, ""
	if r := a.rules(p.p.Base.Ref); r.rules != nil {
		for _, rule := range r.rules {
			if rule.Type == "pull_request" && rule.Parameters.RequiredApprovingReviewCount != nil && *rule.Parameters.RequiredApprovingReviewCount > n {
				n, from = *rule.Parameters.RequiredApprovingReviewCount, RulesName(p.p.Base.Ref)
			}
		}
	}
	if pr := a.protection(p.p.Base.Ref); pr.p != nil && pr.p.RequiredPullRequestReviews != nil && pr.p.RequiredPullRequestReviews.RequiredApprovingReviewCount > n {
		n, from = pr.p.RequiredPullRequestReviews.RequiredApprovingReviewCount, ProtectionName(p.p.Base.Ref)
	}
	if n == 0 {
		return 1, "the default"
	}
	return n, from
}

// approvals finds the approvals that count for p (once).
func (a *audit) approvals(p *pull) *approvalSet {
	if p.approvals != nil {
		return p.approvals
	}
	s := &approvalSet{}
	p.approvals = s
	s.required, s.requiredFrom = a.requiredApprovals(p)
	switch {
	case p.revErr != "":
		s.unknown = p.revErr
		return s
	case p.comErr != "":
		s.unknown = p.comErr + ", so the commits' authors are not known"
		return s
	}
	who := p.authors()
	dismissed := map[int64]string{}
	for _, e := range p.timeline {
		if e.Event == "review_dismissed" && e.DismissedReview != nil {
			dismissed[e.DismissedReview.ReviewID] = e.Actor.name() + " at " + e.CreatedAt
		}
	}
	reviewsName := fmt.Sprintf("pr/pr_%d.reviews.json", p.n)
	// Each reviewer's latest deciding review, by submitted_at (COMMENTED and PENDING decide nothing).
	latest := map[string]int{}
	var order []string
	for i, r := range p.reviews {
		if r.User == nil {
			continue
		}
		if p.merged() && !before(r.SubmittedAt, p.mergedAt()) {
			continue
		}
		switch r.State {
		case "APPROVED", "CHANGES_REQUESTED", "DISMISSED":
		default:
			continue
		}
		key := strconv.FormatInt(r.User.ID, 10) + "/" + strings.ToLower(r.User.Login)
		if _, ok := latest[key]; !ok {
			order = append(order, key)
		}
		latest[key] = i
	}
	// Approvals that a later review of the same reviewer replaced.
	for i, r := range p.reviews {
		if r.State != "APPROVED" || r.User == nil {
			continue
		}
		key := strconv.FormatInt(r.User.ID, 10) + "/" + strings.ToLower(r.User.Login)
		if l, ok := latest[key]; ok && l != i && p.reviews[l].State != "APPROVED" {
			s.refused = append(s.refused, Evidence{Member: reviewsName, Pointer: pointer(i), Who: r.User.Login, Commit: r.CommitID,
				When: r.SubmittedAt, What: fmt.Sprintf("approval by %s cancelled by their later %s review", r.User.Login, p.reviews[l].State)})
		}
	}
	for _, key := range order {
		i := latest[key]
		r := p.reviews[i]
		ev := Evidence{Member: reviewsName, Pointer: pointer(i), Who: r.User.Login, Commit: r.CommitID, When: r.SubmittedAt}
		if r.State == "CHANGES_REQUESTED" {
			if why := who.why(r.User); why == "" {
				ev.What = fmt.Sprintf("changes requested by %s still standing when the pull request merged", r.User.Login)
				s.standing = append(s.standing, ev)
			}
			continue
		}
		if r.State == "DISMISSED" {
			ev.What = fmt.Sprintf("review by %s was dismissed", r.User.Login)
			if by, ok := dismissed[r.ID]; ok {
				ev.What += " by " + by
			}
			s.refused = append(s.refused, ev)
			continue
		}
		if r.State != "APPROVED" {
			continue
		}
		if by, ok := dismissed[r.ID]; ok {
			ev.What = fmt.Sprintf("approval by %s dismissed by %s", r.User.Login, by)
			s.refused = append(s.refused, ev)
			continue
		}
		switch {
		case !strings.EqualFold(r.User.Type, "User"):
			ev.What = fmt.Sprintf("approval by %s, of type %q: not a person", r.User.Login, r.User.Type)
		case who.why(r.User) != "":
			ev.What = fmt.Sprintf("approval by %s, who %s", r.User.Login, who.why(r.User))
		case p.p.MergedBy != nil && (r.User.ID == p.p.MergedBy.ID && r.User.ID != 0 || strings.EqualFold(r.User.Login, p.p.MergedBy.Login)):
			ev.What = fmt.Sprintf("approval by %s, who merged the pull request: the merger is not an approver", r.User.Login)
		default:
			s.counted = append(s.counted, i)
			continue
		}
		s.refused = append(s.refused, ev)
	}
	return s
}

func (a *audit) independentApproval() []Outcome {
	var out []Outcome
	for _, p := range a.merged() {
		s := a.approvals(p)
		o := Outcome{Control: IndependentApproval, Subject: p.subject(), PR: p.n}
		switch {
		case s.unknown != "":
			o.Status, o.Detail = Unknown, s.unknown
		case len(s.counted) < s.required || len(s.standing) > 0:
			o.Status = Exception
			o.Detail = fmt.Sprintf("%d of %d required independent approvals (%s)", len(s.counted), s.required, s.requiredFrom)
			if len(s.standing) > 0 {
				o.Detail += fmt.Sprintf("; %d request for changes still standing", len(s.standing))
			}
			o.Evidence = append(append(o.Evidence, s.standing...), s.refused...)
		default:
			o.Status = Pass
			o.Detail = fmt.Sprintf("%d of %d required independent approvals (%s): %s", len(s.counted), s.required, s.requiredFrom, a.reviewers(p, s.counted))
		}
		out = append(out, o)
	}
	for _, c := range a.directPushes() {
		out = append(out, Outcome{Control: IndependentApproval, Subject: "commit " + c.sha, Commit: c.sha, Status: Exception,
			Detail: "reached " + c.branch + " without a pull request: no review", Evidence: []Evidence{c.evidence}})
	}
	return out
}

func (a *audit) reviewers(p *pull, idx []int) string {
	var names []string
	for _, i := range idx {
		names = append(names, p.reviews[i].User.Login)
	}
	return strings.Join(names, ", ")
}

// approvedFinalHead holds each counted approval against the final head and the pushes that followed it.
func (a *audit) approvedFinalHead() []Outcome {
	var out []Outcome
	for _, p := range a.merged() {
		s := a.approvals(p)
		o := Outcome{Control: ApprovedFinalHead, Subject: p.subject(), PR: p.n}
		switch {
		case s.unknown != "":
			o.Status, o.Detail = Unknown, s.unknown
		case p.tlErr != "":
			o.Status, o.Detail = Unknown, p.tlErr+": whether a push followed an approval is not known"
		case len(s.counted) == 0:
			o.Status, o.Detail = Exception, "no counted approval (see independent-approval)"
		default:
			var fresh []int
			var carried []string
			for _, i := range s.counted {
				ev, why := a.staleness(p, i)
				if ev != nil {
					o.Evidence = append(o.Evidence, *ev)
					continue
				}
				fresh = append(fresh, i)
				if why != "" {
					carried = append(carried, why)
				}
			}
			if len(fresh) >= s.required {
				o.Status = Pass
				o.Detail = fmt.Sprintf("%d counted approval(s) on the final head %s: %s", len(fresh), short(p.p.Head.SHA), a.reviewers(p, fresh))
				if len(carried) > 0 {
					o.Detail += " (" + strings.Join(carried, "; ") + ")"
				}
				o.Evidence = nil
			} else {
				o.Status = Exception
				o.Detail = fmt.Sprintf("%d of %d required approvals on the final head %s; the others were stale", len(fresh), s.required, short(p.p.Head.SHA))
			}
		}
		out = append(out, o)
	}
	return out
}

// staleness says why review i is not on the final head (nil when it is), and, for an approval of an earlier
// commit that still counts, why it carries to the head.
func (a *audit) staleness(p *pull, i int) (*Evidence, string) {
	r := p.reviews[i]
	head := p.p.Head.SHA
	// What changed after the approval may leave the pull request as approved: the head's tree is the approved
	// commit's (an empty commit, a reworded message), or the diff against the base is unchanged, the same
	// patch id of fork point..commit (a rebase onto a newer base, the base merged in; git/patchids, from git).
	carried := ""
	switch {
	case r.CommitID == head:
	case p.treeOf(r.CommitID) != "" && p.treeOf(r.CommitID) == p.treeOf(head):
		carried = fmt.Sprintf("%s approved %s, whose tree is the head's", r.User.Login, short(r.CommitID))
	case a.sameDiff(p, r.CommitID, head):
		carried = fmt.Sprintf("%s approved %s, whose diff against the base is the head's (patch id %s, %s)",
			r.User.Login, short(r.CommitID), short(a.patchIDs(p)[head]), PatchIDsName(p.n))
	}
	// The timeline is in order: a push after the review's own "reviewed" event makes it stale. A review the
	// timeline does not list is placed by time.
	at := -1
	for j, e := range p.timeline {
		if e.Event == "reviewed" && e.ID == r.ID {
			at = j
		}
	}
	for j, e := range p.timeline {
		if e.Event != "committed" && e.Event != "head_ref_force_pushed" {
			continue
		}
		later := j > at
		if at < 0 {
			later = after(e.when(), r.SubmittedAt)
		}
		if !later || carried != "" {
			continue
		}
		what := "a new commit " + short(e.SHA) + " was pushed"
		if e.Event == "head_ref_force_pushed" {
			what = "the head was force-pushed by " + e.Actor.name()
			if e.CommitID != "" {
				what += " to " + short(e.CommitID)
			}
		}
		return &Evidence{Member: TimelineName(p.n), Pointer: pointer(j), Who: r.User.Login, Commit: r.CommitID, When: e.when(),
			What: fmt.Sprintf("approval by %s at %s is stale: %s after it%s", r.User.Login, r.SubmittedAt, what, a.diffNote(p, r.CommitID))}, ""
	}
	if r.CommitID != head && carried == "" {
		return &Evidence{Member: fmt.Sprintf("pr/pr_%d.reviews.json", p.n), Pointer: pointer(i, "commit_id"), Who: r.User.Login,
			Commit: r.CommitID, When: r.SubmittedAt,
			What: fmt.Sprintf("approval by %s was on %s, not the final head %s%s", r.User.Login, short(r.CommitID), short(head), a.diffNote(p, r.CommitID))}, ""
	}
	return nil, carried
}

// diffNote says, for a stale approval of commit x, what the patch ids tell: that the diff changed, or why they
// could not be compared.
func (a *audit) diffNote(p *pull, x string) string {
	ids := a.patchIDs(p)
	idx, okx := ids[x]
	idh, okh := ids[p.p.Head.SHA]
	switch {
	case okx && okh && idx != idh:
		return fmt.Sprintf(", and the diff against the base changed (patch id %s, then %s; %s)", short(idx), short(idh), PatchIDsName(p.n))
	case !okx && len(ids) > 0:
		return fmt.Sprintf("; %s has no patch id of %s (not in the bundler's clone?)", PatchIDsName(p.n), short(x))
	}
	return ""
}

// treeOf is a commit's tree as the pull request's commits or the timeline's committed events give it; "" when
// neither does (a commit a force push replaced is in neither).
func (p *pull) treeOf(sha string) string {
	for _, c := range p.commits {
		if c.SHA == sha && c.Commit.Tree.SHA != "" {
			return c.Commit.Tree.SHA
		}
	}
	for _, e := range p.timeline {
		if e.Event == "committed" && e.SHA == sha && e.Tree != nil {
			return e.Tree.SHA
		}
	}
	return ""
}
