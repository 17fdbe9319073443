package controls

import (
	"fmt"
	"sort"
	"strings"
)

// requiredChecks is the policy's required_checks, else the captured rules' and protection's together. known is
// false when nothing says which checks are required (the protection was not readable and the rules require
// none), with why.
func (a *audit) requiredChecks(p *pull) (names []string, from string, known bool, why string) {
	if len(a.pol.RequiredChecks) > 0 {
		return a.pol.RequiredChecks, "the policy", true, ""
	}
	set := map[string]bool{}
	var froms []string
	r := a.rules(p.p.Base.Ref)
	for _, rule := range r.rules {
		if rule.Type == "required_status_checks" {
			for _, c := range rule.Parameters.RequiredStatusChecks {
				set[c.Context] = true
			}
		}
	}
	if len(set) > 0 {
		froms = append(froms, RulesName(p.p.Base.Ref))
	}
	pr := a.protection(p.p.Base.Ref)
	if pr.p != nil && pr.p.RequiredStatusChecks != nil {
		n := len(set)
		for _, c := range pr.p.RequiredStatusChecks.Contexts {
			set[c] = true
		}
		for _, c := range pr.p.RequiredStatusChecks.Checks {
			set[c.Context] = true
		}
		if len(set) > n {
			froms = append(froms, ProtectionName(p.p.Base.Ref))
		}
	}
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) > 0 {
		return names, strings.Join(froms, " and "), true, ""
	}
	if pr.p == nil {
		return nil, "", false, pr.why + "; the rules require no check, so which checks are required is not known (name them in the policy's required_checks)"
	}
	return nil, "", true, ""
}

func (a *audit) checksPassed() []Outcome {
	var out []Outcome
	for _, p := range a.merged() {
		o := Outcome{Control: ChecksPassed, Subject: p.subject(), PR: p.n}
		names, from, known, why := a.requiredChecks(p)
		switch {
		case !known:
			o.Status, o.Detail = Unknown, why
		case len(names) == 0:
			o.Status, o.Detail = Pass, "no check is required (rules and branch protection of "+p.p.Base.Ref+" require none)"
		default:
			var passed, unknown []string
			for _, name := range names {
				st, ev, note := a.check(p, name)
				switch st {
				case Pass:
					passed = append(passed, name)
				case Unknown:
					unknown = append(unknown, note)
				default:
					o.Evidence = append(o.Evidence, ev)
				}
			}
			switch {
			case len(o.Evidence) > 0:
				o.Status = Exception
				o.Detail = fmt.Sprintf("%d of %d required checks (%s) did not pass before the merge", len(o.Evidence), len(names), from)
			case len(unknown) > 0:
				o.Status, o.Detail = Unknown, strings.Join(unknown, "; ")
			default:
				on := short(p.p.Head.SHA)
				if p.mergeQueue() && p.mergeSHA() != "" {
					on = "the merge-queue commit " + short(p.mergeSHA()) + " or the head " + on
				}
				o.Status = Pass
				o.Detail = fmt.Sprintf("required checks (%s) passed on %s before the merge: %s", from, on, strings.Join(passed, ", "))
			}
		}
		out = append(out, o)
	}
	for _, c := range a.directPushes() {
		out = append(out, Outcome{Control: ChecksPassed, Subject: "commit " + c.sha, Commit: c.sha, Status: Unknown,
			Detail: "reached " + c.branch + " without a pull request: checks are captured per pull request"})
	}
	return out
}

// check judges one required check on the head (and, after a merge queue, the merge commit): Pass, Exception
// with its evidence, or Unknown with why.
func (a *audit) check(p *pull, name string) (string, Evidence, string) {
	shas := []string{p.p.Head.SHA}
	if p.mergeQueue() && p.mergeSHA() != "" {
		shas = append(shas, p.mergeSHA())
	}
	var last *Evidence
	captured := false
	var partial []string // members that hold fewer runs or statuses than GitHub counted
	for _, sha := range shas {
		var runs ghCheckRuns
		member := CheckRunsName(p.n, sha)
		if a.read(member, &runs) == "" {
			captured = true
			if runs.TotalCount > len(runs.CheckRuns) {
				partial = append(partial, fmt.Sprintf("%s holds %d of the %d check runs GitHub counted", member, len(runs.CheckRuns), runs.TotalCount))
			}
			for i, r := range runs.CheckRuns {
				if r.Name != name {
					continue
				}
				concl, done := "", ""
				if r.Conclusion != nil {
					concl = *r.Conclusion
				}
				if r.CompletedAt != nil {
					done = *r.CompletedAt
				}
				ev := Evidence{Member: member, Pointer: pointer("check_runs", i), Commit: sha, When: done}
				switch {
				case r.Status != "completed":
					ev.What = fmt.Sprintf("check %q on %s is %s, not completed", name, short(sha), r.Status)
				case concl != "success" && concl != "neutral" && concl != "skipped":
					ev.What = fmt.Sprintf("check %q on %s concluded %s", name, short(sha), concl)
				case !before(done, p.mergedAt()):
					ev.What = fmt.Sprintf("check %q on %s completed at %s, after the merge at %s", name, short(sha), done, p.mergedAt())
				default:
					return Pass, Evidence{}, ""
				}
				e := ev
				last = &e
			}
		}
		var st ghStatus
		member = StatusName(p.n, sha)
		if a.read(member, &st) == "" {
			captured = true
			if st.TotalCount > len(st.Statuses) {
				partial = append(partial, fmt.Sprintf("%s holds %d of the %d statuses GitHub counted", member, len(st.Statuses), st.TotalCount))
			}
			for i, s := range st.Statuses {
				if s.Context != name {
					continue
				}
				ev := Evidence{Member: member, Pointer: pointer("statuses", i), Commit: sha, When: s.UpdatedAt}
				switch {
				case s.State != "success":
					ev.What = fmt.Sprintf("status %q on %s is %s", name, short(sha), s.State)
				case !before(s.UpdatedAt, p.mergedAt()):
					ev.What = fmt.Sprintf("status %q on %s was set at %s, after the merge at %s", name, short(sha), s.UpdatedAt, p.mergedAt())
				default:
					return Pass, Evidence{}, ""
				}
				e := ev
				last = &e
			}
		}
	}
	switch {
	case last != nil:
		return Exception, *last, ""
	case !captured:
		return Unknown, Evidence{}, fmt.Sprintf("the checks of %s were not captured (%s)", short(p.p.Head.SHA), CheckRunsName(p.n, p.p.Head.SHA))
	case len(partial) > 0:
		// The run may be among those not captured (a bundle made before every page was read).
		return Unknown, Evidence{}, fmt.Sprintf("required check %q is not among the runs captured: %s", name, strings.Join(partial, "; "))
	}
	return Exception, Evidence{Member: CheckRunsName(p.n, p.p.Head.SHA), Pointer: pointer("check_runs"), Commit: p.p.Head.SHA,
		What: fmt.Sprintf("required check %q has no run or status on %s", name, short(p.p.Head.SHA))}, ""
}
