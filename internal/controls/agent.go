package controls

import (
	"fmt"
	"sort"
	"strings"
)

// agentWords are what the names and addresses agents commit under, or are credited with in Co-authored-by
// trailers, contain ("Claude <noreply@anthropic.com>", "Cursor Agent <cursoragent@cursor.com>",
// "copilot-swe-agent[bot]"); a bot account (type "Bot", a "[bot]" login) counts too, unless the policy trusts
// it. Words a person's name may hold (Claude, Devin) are not among them: their agents' addresses are. An
// Assisted-by trailer always names an agent.
var agentWords = []string{"[bot]", "agent", "copilot", "codex", "aider", "openhands", "anthropic.com", "openai.com", "cursor.com"}

func (a *audit) isAgent(name, email string, u *ghUser) bool {
	if u != nil && a.pol.TrustsBot(u.Login) {
		return false
	}
	if u != nil && strings.EqualFold(u.Type, "Bot") {
		return true
	}
	s := strings.ToLower(name + " " + email)
	if u != nil {
		s += " " + strings.ToLower(u.Login)
	}
	for _, w := range agentWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// agentWork is what says a pull request (or a tied commit) carries an agent's work.
type agentWork struct {
	evidence   []Evidence
	initiators *people // who put the agent's work there: no approver of it
	// initiatorFrom says where initiators came from (the bundle's records, or the approximation), and untied
	// are recorded initiators no GitHub account could be found for.
	initiatorFrom string
	untied        []initiator
	paths         []string // files lineage v1 attributes to an agent
	commits       []string // commits authored by or crediting an agent
}

// agentWorkOf finds the agent work of one merged pull request: its commits' authors and trailers, and the
// files lineage v1 attributes to an agent in tied commits that reached the branch through it.
func (a *audit) agentWorkOf(p *pull) *agentWork {
	w := &agentWork{initiators: newPeople()}
	w.initiators.addUser(p.p.User, "opened the pull request")
	for i, c := range p.commits {
		var whys []string
		if a.isAgent(c.Commit.Author.Name, c.Commit.Author.Email, c.Author) {
			whys = append(whys, "authored by "+c.Commit.Author.Name+" <"+c.Commit.Author.Email+">")
		}
		for _, key := range []string{"Assisted-by", "Co-authored-by"} {
			for _, v := range trailers(c.Commit.Message, key) {
				name, email := splitIdent(v)
				if key == "Assisted-by" || a.isAgent(name, email, nil) {
					whys = append(whys, key+": "+v)
				}
			}
		}
		if len(whys) == 0 {
			continue
		}
		w.commits = append(w.commits, c.SHA)
		w.evidence = append(w.evidence, Evidence{Member: CommitsName(p.n), Pointer: pointer(i, "commit"), Who: c.Commit.Author.Name,
			Commit: c.SHA, When: c.Commit.Author.Date, What: "agent work: " + strings.Join(whys, "; ")})
		// The people who brought the agent's commit: its human author and committer.
		if !a.isAgent(c.Commit.Author.Name, c.Commit.Author.Email, c.Author) {
			w.initiators.addUser(c.Author, "authored the agent-assisted commit "+short(c.SHA)+" (the agent's initiator)")
			w.initiators.addEmail(c.Commit.Author.Email, "authored the agent-assisted commit "+short(c.SHA)+" (the agent's initiator)")
		}
		if !webFlow(c.Committer, c.Commit.Committer.Email) {
			w.initiators.addUser(c.Committer, "committed the agent's commit "+short(c.SHA)+" (the agent's initiator)")
			w.initiators.addEmail(c.Commit.Committer.Email, "committed the agent's commit "+short(c.SHA)+" (the agent's initiator)")
		}
	}
	inPR := map[string]bool{}
	for _, c := range p.commits {
		inPR[c.SHA] = true
	}
	for _, t := range a.tied() {
		if arr := a.arrivalOf(t); arr != nil && arr.pr == p {
			inPR[t.d.SHA] = true
		}
	}
	for i, at := range a.in.Attribution {
		if !inPR[at.Commit] || len(at.WrittenBy) == 0 {
			continue
		}
		wb := at.WrittenBy[0]
		w.paths = append(w.paths, at.Path)
		w.evidence = append(w.evidence, Evidence{Member: "lineage/v1/log.jsonl", Pointer: fmt.Sprintf("/attribution/%d (line %d)", i, wb.Line),
			Who: wb.AgentID, Commit: at.Commit, When: wb.Time, What: fmt.Sprintf("agent work: %s written by %s (tool call %s)", at.Path, wb.AgentID, wb.ToolCallID)})
	}
	sort.Strings(w.paths)
	if w.initiatorFrom, w.untied = a.addRecordedInitiators(p, w); w.initiatorFrom == "" {
		w.initiatorFrom = approximatedInitiator
	}
	return w
}

func (a *audit) agentWorkReviewed() []Outcome {
	var out []Outcome
	for _, p := range a.merged() {
		o := Outcome{Control: AgentWorkReviewed, Subject: p.subject(), PR: p.n}
		if p.comErr != "" {
			o.Status, o.Detail = Unknown, p.comErr
			out = append(out, o)
			continue
		}
		w := a.agentWorkOf(p)
		s := a.approvals(p)
		switch {
		case len(w.evidence) == 0:
			o.Status, o.Detail = Pass, "no agent work found (no agent or bot author, no Assisted-by or agent Co-authored-by, no file lineage v1 attributes to an agent)"
		case s.unknown != "":
			o.Status, o.Detail = Unknown, s.unknown
		default:
			var by []string
			for _, i := range s.counted {
				if u := p.reviews[i].User; w.initiators.why(u) == "" {
					by = append(by, u.Login)
				}
			}
			switch {
			case len(by) > 0 && len(w.untied) > 0:
				var who []string
				for _, in := range w.untied {
					who = append(who, fmt.Sprintf("%s (%s line %d)", in, in.member, in.line))
				}
				o.Status = Unknown
				o.Detail = fmt.Sprintf("the agent's initiator %s is tied to no GitHub account the bundle knows, so whether %s is "+
					"the initiator is not known", strings.Join(who, ", "), strings.Join(by, ", "))
			case len(by) == 0:
				o.Status, o.Evidence = Exception, w.evidence
				o.Detail = "agent work with no counted human approval by someone other than the agent's initiator (" + w.initiatorFrom + ")"
				for _, i := range s.counted {
					u := p.reviews[i].User
					o.Evidence = append(o.Evidence, Evidence{Member: fmt.Sprintf("pr/pr_%d.reviews.json", p.n), Pointer: pointer(i), Who: u.Login,
						Commit: p.reviews[i].CommitID, When: p.reviews[i].SubmittedAt, What: fmt.Sprintf("approval by %s, who %s", u.Login, w.initiators.why(u))})
				}
				o.Evidence = append(o.Evidence, s.refused...)
			case a.pol.RequireCodeowners:
				o.Status, o.Detail, o.Evidence = a.ownersApproved(p, w, by)
			default:
				o.Status = Pass
				o.Detail = fmt.Sprintf("agent work (%d item(s)) approved by %s, not the agent's initiator (%s)", len(w.evidence),
					strings.Join(by, ", "), w.initiatorFrom)
			}
		}
		out = append(out, o)
	}
	// Agent work that reached a protected branch without a pull request was reviewed by no one.
	pushed := map[string]bool{}
	for _, c := range a.directPushes() {
		pushed[c.sha] = true
	}
	for _, c := range a.tied() {
		if !pushed[c.d.SHA] {
			continue
		}
		var ev []Evidence
		if a.isAgent(c.d.Author.Name, c.d.Author.Email, nil) {
			ev = append(ev, Evidence{Member: "git/commits.json", Pointer: pointer("details", c.i, "author"), Who: c.d.Author.Name, Commit: c.d.SHA,
				When: c.d.Author.Date, What: "agent work: authored by " + c.d.Author.Name + " <" + c.d.Author.Email + ">"})
		}
		for i, at := range a.in.Attribution {
			if at.Commit == c.d.SHA && len(at.WrittenBy) > 0 {
				ev = append(ev, Evidence{Member: "lineage/v1/log.jsonl", Pointer: fmt.Sprintf("/attribution/%d", i), Who: at.WrittenBy[0].AgentID,
					Commit: at.Commit, When: at.WrittenBy[0].Time, What: "agent work: " + at.Path + " written by " + at.WrittenBy[0].AgentID})
			}
		}
		if len(ev) > 0 {
			out = append(out, Outcome{Control: AgentWorkReviewed, Subject: "commit " + c.d.SHA, Commit: c.d.SHA, Status: Exception,
				Detail: "agent work pushed without a pull request: reviewed by no one", Evidence: ev})
		}
	}
	return out
}

// ownersApproved holds require_codeowners: every agent-written path with an owner in CODEOWNERS at base.sha
// (the last matching rule) was approved by one of its owners among by (counted approvals, the initiator aside):
// a user, a member of a team (its members as captured), or the account of an e-mail owner (ownerApproved).
// When no owner approved and one of them cannot be told (a team not captured or not readable, an address tied
// to no account): unknown.
func (a *audit) ownersApproved(p *pull, w *agentWork, by []string) (string, string, []Evidence) {
	co, coPath, why := a.codeOwnersAt(p.p.Base.SHA)
	if why != "" {
		return Unknown, why, nil
	}
	set := map[string]bool{}
	var paths []string
	add := func(ps ...string) {
		for _, x := range ps {
			if !set[x] {
				set[x] = true
				paths = append(paths, x)
			}
		}
	}
	add(w.paths...)
	var byCommit map[string][]string
	if patch, ok := a.in.Members["git/diff.patch"]; ok {
		byCommit = patchPaths(patch)
	}
	for _, c := range w.commits {
		ps, ok := byCommit[c]
		if !ok {
			return Unknown, fmt.Sprintf("require_codeowners: the files of agent commit %s are not in git/diff.patch", short(c)), nil
		}
		add(ps...)
	}
	sort.Strings(paths)
	if co == nil {
		return Pass, fmt.Sprintf("agent work approved by %s; %s has no CODEOWNERS, so no path has an owner", strings.Join(by, ", "), short(p.p.Base.SHA)), nil
	}
	var ev []Evidence
	var unknown []string
	for _, path := range paths {
		r := co.ownersOf(path)
		if r == nil || len(r.owners) == 0 {
			continue
		}
		ok := false
		var whys []string
		for _, o := range r.owners {
			v := a.ownerApproved(o, by)
			ok = ok || v.approved
			if v.unknown != "" {
				whys = append(whys, v.unknown)
			}
		}
		switch {
		case ok:
		case len(whys) > 0:
			unknown = append(unknown, fmt.Sprintf("%s is owned by %s (%s line %d), and %s", path, strings.Join(r.owners, " "), coPath, r.line,
				strings.Join(whys, "; ")))
		default:
			ev = append(ev, Evidence{Member: CodeOwnersName(p.p.Base.SHA), Pointer: "/content", Commit: p.p.Base.SHA,
				What: fmt.Sprintf("agent-written %s is owned by %s (%s line %d, pattern %s), and none of them approved", path, strings.Join(r.owners, " "), coPath, r.line, r.pattern)})
		}
	}
	switch {
	case len(ev) > 0:
		return Exception, fmt.Sprintf("require_codeowners: %d agent-written path(s) without an approval by an owner", len(ev)), append(ev, w.evidence...)
	case len(unknown) > 0:
		return Unknown, strings.Join(unknown, "; "), nil
	}
	return Pass, fmt.Sprintf("agent work approved by %s, an owner of each agent-written path with one (%s at %s)", strings.Join(by, ", "), coPath, short(p.p.Base.SHA)), nil
}
