package controls

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/commitsjson"
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/policy"
)

// The scenarios are one pull request, #17, merged into main, in the shapes GitHub documents for each endpoint
// (trimmed to the fields that matter), and its ticket, GitHub issue #42. Each scenario changes the baseline,
// in which every control passes, and says what each control must answer.

const (
	base  = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	c1    = "c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1"
	c2    = "c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2"
	merge = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
	push1 = "dddddddddddddddddddddddddddddddddddddddd"
)

type user = map[string]any

func human(login string, id int) user { return user{"login": login, "id": id, "type": "User"} }
func bot(login string, id int) user   { return user{"login": login, "id": id, "type": "Bot"} }

var (
	dev   = human("dev", 1)
	rita  = human("rita", 2)
	carol = human("carol", 3)
	merg  = human("mergey", 9)
)

type scenario struct {
	pull      map[string]any
	reviews   []map[string]any
	commits   []map[string]any
	timeline  []map[string]any
	checkRuns map[string][]map[string]any // by sha
	statuses  map[string][]map[string]any
	rules     []map[string]any
	prot      map[string]any
	issue     map[string]any
	events    []map[string]any
	tied      commitsjson.Commits
	attr      []logv1.Attribution
	pol       policy.Policy
	extra     map[string][]byte
}

func ghCommitOf(sha string, author user, name, email, date, msg string, parents ...string) map[string]any {
	ps := []map[string]any{}
	for _, p := range parents {
		ps = append(ps, map[string]any{"sha": p})
	}
	return map[string]any{"sha": sha, "author": author, "committer": author, "parents": ps, "commit": map[string]any{
		"author": map[string]any{"name": name, "email": email, "date": date}, "committer": map[string]any{"name": name, "email": email, "date": date},
		"message": msg}}
}

func detailOf(sha, name, email, date, subject string, branches []string, parents ...string) commitsjson.CommitDetail {
	p := commitsjson.Person{Name: name, Email: email, Date: date}
	if parents == nil {
		parents = []string{}
	}
	return commitsjson.CommitDetail{SHA: sha, Parents: parents, Author: p, Committer: p, Subject: subject, MatchedBy: []string{"trailer"},
		CherryPickedFrom: []string{}, LandedOn: &commitsjson.LandedOn{Branches: branches, Tags: []string{}}}
}

const t0 = 0

// codeowners is git/codeowners/<base>.json holding text as .github/CODEOWNERS.
func codeowners(_ int, text string) []byte {
	p := ".github/CODEOWNERS"
	b, _ := json.Marshal(CodeOwnersDoc{V: 1, Commit: base, Path: &p, Content: &text})
	return b
}

const (
	pid1 = "1111111111111111111111111111111111111111"
	pid2 = "2222222222222222222222222222222222222222"
)

// patchIDs is git/patchids/pr_<n>.json giving each commit its patch id against the base.
func patchIDs(n int, ids map[string]string) []byte {
	doc := PatchIDsDoc{V: 1, PR: n, Base: base}
	for _, c := range []string{c1, c2} {
		if id, ok := ids[c]; ok {
			doc.Heads = append(doc.Heads, PatchIDHead{Commit: c, ForkPoint: base, PatchID: &id})
		}
	}
	b, _ := json.Marshal(doc)
	return b
}

func baseline() *scenario {
	return &scenario{
		pull: map[string]any{"number": 17, "state": "closed", "user": dev, "head": map[string]any{"sha": c1, "ref": "feature"},
			"base": map[string]any{"sha": base, "ref": "main"}, "created_at": "2026-01-02T08:00:00Z", "merged_at": "2026-01-02T12:00:00Z",
			"merged_by": merg, "merge_commit_sha": merge},
		reviews: []map[string]any{{"id": 100, "user": rita, "state": "APPROVED", "commit_id": c1, "submitted_at": "2026-01-02T10:00:00Z"}},
		commits: []map[string]any{ghCommitOf(c1, dev, "Dev", "dev@example.com", "2026-01-02T09:00:00Z", "Fix rounding\n\nRefs: #42", base)},
		timeline: []map[string]any{
			{"event": "committed", "sha": c1, "author": map[string]any{"name": "Dev", "email": "dev@example.com", "date": "2026-01-02T09:00:00Z"},
				"committer": map[string]any{"name": "Dev", "email": "dev@example.com", "date": "2026-01-02T09:00:00Z"}},
			{"event": "reviewed", "id": 100, "user": rita, "state": "approved", "commit_id": c1, "submitted_at": "2026-01-02T10:00:00Z"},
			{"event": "merged", "actor": merg, "commit_id": merge, "created_at": "2026-01-02T12:00:00Z"},
		},
		checkRuns: map[string][]map[string]any{c1: {{"name": "build", "status": "completed", "conclusion": "success", "completed_at": "2026-01-02T09:30:00Z", "head_sha": c1}}},
		statuses:  map[string][]map[string]any{c1: {}},
		rules: []map[string]any{
			{"type": "pull_request", "parameters": map[string]any{"required_approving_review_count": 1}},
			{"type": "required_status_checks", "parameters": map[string]any{"required_status_checks": []map[string]any{{"context": "build"}}}},
		},
		prot:   map[string]any{"url": "https://api.github.com/repos/acme/app/branches/main/protection", "required_status_checks": map[string]any{"contexts": []string{"build"}}},
		issue:  map[string]any{"number": 42, "created_at": "2026-01-01T00:00:00Z", "state": "open"},
		events: []map[string]any{},
		tied: commitsjson.Commits{Tracker: "github", TicketID: "42", Commits: []string{c1, merge}, Details: []commitsjson.CommitDetail{
			detailOf(c1, "Dev", "dev@example.com", "2026-01-02T09:00:00Z", "Fix rounding", []string{"feature", "main"}, base),
			detailOf(merge, "Mergey", "mergey@example.com", "2026-01-02T12:00:00Z", "Merge pull request #17", []string{"main"}, base, c1),
		}},
	}
}

func (s *scenario) input(t *testing.T) Input {
	t.Helper()
	m := map[string][]byte{}
	put := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = b
	}
	put("pr/pr_17.json", s.pull)
	put("pr/pr_17.reviews.json", s.reviews)
	put(CommitsName(17), s.commits)
	put(TimelineName(17), s.timeline)
	for sha, runs := range s.checkRuns {
		put(CheckRunsName(17, sha), map[string]any{"total_count": len(runs), "check_runs": runs})
	}
	for sha, st := range s.statuses {
		put(StatusName(17, sha), map[string]any{"state": "success", "statuses": st})
	}
	put(RulesName("main"), s.rules)
	put(ProtectionName("main"), s.prot)
	if s.issue != nil {
		put(IssueName(42), s.issue)
		put(IssueEventsName(42), s.events)
	}
	put("git/commits.json", s.tied)
	for k, v := range s.extra {
		m[k] = v
	}
	return Input{Members: m, Attribution: s.attr}
}

// want is the status per control and subject ("control subject" → status); a control not named must pass.
type want map[string]string

func TestScenarios(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(s *scenario)
		want   want
		// says are words the exception's text must hold.
		says []string
	}{
		{name: "baseline", change: func(*scenario) {}},
		{name: "self-approval", change: func(s *scenario) {
			s.reviews[0]["user"] = dev
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{"approval by dev, who opened the pull request"}},
		{name: "approval by a commit author", change: func(s *scenario) {
			s.commits = append(s.commits, ghCommitOf(c2, carol, "Carol", "carol@example.com", "2026-01-02T09:10:00Z", "Tests", c1))
			s.reviews[0]["user"] = carol
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{"who is the author of commit c2c2c2c2c2c2"}},
		{name: "approval by a co-author named only in a trailer", change: func(s *scenario) {
			s.commits[0]["commit"].(map[string]any)["message"] = "Fix rounding\n\nCo-authored-by: Rita <2+rita@users.noreply.github.com>"
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{"named in Co-authored-by"}},
		{name: "approval only by the merger", change: func(s *scenario) {
			s.pull["merged_by"] = rita
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{"the merger is not an approver"}},
		{name: "bot approval", change: func(s *scenario) {
			s.reviews[0]["user"] = bot("review-bot[bot]", 50)
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{`of type "Bot"`}},
		{name: "approval then a new push (stale)", change: func(s *scenario) {
			s.commits = append(s.commits, ghCommitOf(c2, dev, "Dev", "dev@example.com", "2026-01-02T11:00:00Z", "More", c1))
			s.pull["head"] = map[string]any{"sha": c2, "ref": "feature"}
			s.timeline = append(s.timeline[:2], map[string]any{"event": "committed", "sha": c2,
				"committer": map[string]any{"name": "Dev", "email": "dev@example.com", "date": "2026-01-02T11:00:00Z"}}, s.timeline[2])
			s.checkRuns[c2] = s.checkRuns[c1]
		}, want: want{"approved-final-head #17": Exception}, says: []string{"is stale: a new commit c2c2c2c2c2c2 was pushed after it"}},
		{name: "a push after the approval that leaves the tree as approved", change: func(s *scenario) {
			s.commits[0]["commit"].(map[string]any)["tree"] = map[string]any{"sha": "7777777777777777777777777777777777777777"}
			empty := ghCommitOf(c2, dev, "Dev", "dev@example.com", "2026-01-02T11:00:00Z", "Retrigger CI", c1)
			empty["commit"].(map[string]any)["tree"] = map[string]any{"sha": "7777777777777777777777777777777777777777"}
			s.commits = append(s.commits, empty)
			s.pull["head"] = map[string]any{"sha": c2, "ref": "feature"}
			s.timeline = append(s.timeline[:2], map[string]any{"event": "committed", "sha": c2,
				"committer": map[string]any{"name": "Dev", "email": "dev@example.com", "date": "2026-01-02T11:00:00Z"}}, s.timeline[2])
			s.checkRuns[c2] = s.checkRuns[c1]
		}},
		{name: "rebase onto a newer base after the approval: the same diff by patch id", change: func(s *scenario) {
			// The head was force-pushed to c2, c1 rebased: its tree differs, its diff against the base does not.
			s.commits = []map[string]any{ghCommitOf(c2, dev, "Dev", "dev@example.com", "2026-01-02T09:00:00Z", "Fix rounding\n\nRefs: #42", push1)}
			s.pull["head"] = map[string]any{"sha": c2, "ref": "feature"}
			s.timeline = append(s.timeline[:2], map[string]any{"event": "head_ref_force_pushed", "actor": dev, "commit_id": c2,
				"created_at": "2026-01-02T11:00:00Z"}, s.timeline[2])
			s.checkRuns[c2] = s.checkRuns[c1]
			s.extra = map[string][]byte{PatchIDsName(17): patchIDs(17, map[string]string{c1: pid1, c2: pid1})}
		}, says: []string{"rita approved c1c1c1c1c1c1, whose diff against the base is the head's (patch id 1111"}},
		{name: "rebase after the approval that changed the diff", change: func(s *scenario) {
			s.commits = []map[string]any{ghCommitOf(c2, dev, "Dev", "dev@example.com", "2026-01-02T09:00:00Z", "Fix rounding\n\nRefs: #42", push1)}
			s.pull["head"] = map[string]any{"sha": c2, "ref": "feature"}
			s.timeline = append(s.timeline[:2], map[string]any{"event": "head_ref_force_pushed", "actor": dev, "commit_id": c2,
				"created_at": "2026-01-02T11:00:00Z"}, s.timeline[2])
			s.checkRuns[c2] = s.checkRuns[c1]
			s.extra = map[string][]byte{PatchIDsName(17): patchIDs(17, map[string]string{c1: pid1, c2: pid2})}
		}, want: want{"approved-final-head #17": Exception}, says: []string{"the diff against the base changed (patch id 111111111111, then 222222222222"}},
		{name: "patch ids recorded for another pull request are not read", change: func(s *scenario) {
			s.commits = []map[string]any{ghCommitOf(c2, dev, "Dev", "dev@example.com", "2026-01-02T09:00:00Z", "Fix rounding\n\nRefs: #42", push1)}
			s.pull["head"] = map[string]any{"sha": c2, "ref": "feature"}
			s.timeline = append(s.timeline[:2], map[string]any{"event": "head_ref_force_pushed", "actor": dev, "commit_id": c2,
				"created_at": "2026-01-02T11:00:00Z"}, s.timeline[2])
			s.checkRuns[c2] = s.checkRuns[c1]
			s.extra = map[string][]byte{PatchIDsName(17): patchIDs(18, map[string]string{c1: pid1, c2: pid1})}
		}, want: want{"approved-final-head #17": Exception}, says: []string{"the head was force-pushed by dev"}},
		{name: "patch ids against another base are not read", change: func(s *scenario) {
			s.commits = []map[string]any{ghCommitOf(c2, dev, "Dev", "dev@example.com", "2026-01-02T09:00:00Z", "Fix rounding\n\nRefs: #42", push1)}
			s.pull["head"] = map[string]any{"sha": c2, "ref": "feature"}
			s.timeline = append(s.timeline[:2], map[string]any{"event": "head_ref_force_pushed", "actor": dev, "commit_id": c2,
				"created_at": "2026-01-02T11:00:00Z"}, s.timeline[2])
			s.checkRuns[c2] = s.checkRuns[c1]
			s.pull["base"] = map[string]any{"sha": c1, "ref": "main"}
			s.extra = map[string][]byte{PatchIDsName(17): patchIDs(17, map[string]string{c1: pid1, c2: pid1})}
		}, want: want{"approved-final-head #17": Exception}, says: []string{"the head was force-pushed by dev"}},
		{name: "stale then re-approval", change: func(s *scenario) {
			s.commits = append(s.commits, ghCommitOf(c2, dev, "Dev", "dev@example.com", "2026-01-02T11:00:00Z", "More", c1))
			s.pull["head"] = map[string]any{"sha": c2, "ref": "feature"}
			s.reviews = append(s.reviews, map[string]any{"id": 101, "user": rita, "state": "APPROVED", "commit_id": c2, "submitted_at": "2026-01-02T11:30:00Z"})
			s.timeline = append(s.timeline[:2], map[string]any{"event": "committed", "sha": c2,
				"committer": map[string]any{"name": "Dev", "email": "dev@example.com", "date": "2026-01-02T11:00:00Z"}},
				map[string]any{"event": "reviewed", "id": 101, "user": rita, "state": "approved", "commit_id": c2, "submitted_at": "2026-01-02T11:30:00Z"}, s.timeline[2])
			s.checkRuns[c2] = s.checkRuns[c1]
		}},
		{name: "force push after approval", change: func(s *scenario) {
			s.timeline = append(s.timeline[:2], map[string]any{"event": "head_ref_force_pushed", "actor": dev, "commit_id": c1, "created_at": "2026-01-02T11:00:00Z"}, s.timeline[2])
		}, want: want{"approved-final-head #17": Exception}, says: []string{"the head was force-pushed by dev"}},
		{name: "dismissed review", change: func(s *scenario) {
			s.reviews[0]["state"] = "DISMISSED"
			s.timeline = append(s.timeline, map[string]any{"event": "review_dismissed", "actor": merg, "created_at": "2026-01-02T11:00:00Z",
				"dismissed_review": map[string]any{"state": "approved", "review_id": 100}})
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{"0 of 1 required independent approvals", "review by rita was dismissed by mergey at 2026-01-02T11:00:00Z"}},
		{name: "dismissal recorded only in the timeline", change: func(s *scenario) {
			s.timeline = append(s.timeline, map[string]any{"event": "review_dismissed", "actor": merg, "created_at": "2026-01-02T11:00:00Z",
				"dismissed_review": map[string]any{"state": "approved", "review_id": 100}})
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{"dismissed by mergey"}},
		{name: "CHANGES_REQUESTED still standing", change: func(s *scenario) {
			s.reviews = append(s.reviews, map[string]any{"id": 102, "user": carol, "state": "CHANGES_REQUESTED", "commit_id": c1, "submitted_at": "2026-01-02T10:30:00Z"})
		}, want: want{"independent-approval #17": Exception}, says: []string{"changes requested by carol still standing"}},
		{name: "approval withdrawn by a later CHANGES_REQUESTED", change: func(s *scenario) {
			s.reviews = append(s.reviews, map[string]any{"id": 102, "user": rita, "state": "CHANGES_REQUESTED", "commit_id": c1, "submitted_at": "2026-01-02T10:30:00Z"})
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{"cancelled by their later CHANGES_REQUESTED"}},
		{name: "failing required check", change: func(s *scenario) {
			s.checkRuns[c1][0]["conclusion"] = "failure"
		}, want: want{"checks-passed #17": Exception}, says: []string{`check "build" on c1c1c1c1c1c1 concluded failure`}},
		{name: "check completed after the merge", change: func(s *scenario) {
			s.checkRuns[c1][0]["completed_at"] = "2026-01-02T12:30:00Z"
		}, want: want{"checks-passed #17": Exception}, says: []string{"after the merge at 2026-01-02T12:00:00Z"}},
		{name: "required check not among the runs captured (one page of several)", change: func(s *scenario) {
			s.checkRuns[c1][0]["name"] = "lint"
			s.extra = map[string][]byte{CheckRunsName(17, c1): []byte(`{"total_count":150,"check_runs":[{"name":"lint","status":"completed","conclusion":"success"}]}`)}
		}, want: want{"checks-passed #17": Unknown}, says: []string{`required check "build" is not among the runs captured: pr/pr_17.check-runs.` + c1 + `.json holds 1 of the 150 check runs GitHub counted`}},
		{name: "required check passed as a status", change: func(s *scenario) {
			s.checkRuns[c1] = nil
			s.statuses[c1] = []map[string]any{{"context": "build", "state": "success", "updated_at": "2026-01-02T09:30:00Z"}}
		}},
		{name: "policy requires a check never run", change: func(s *scenario) {
			s.pol.RequiredChecks = []string{"build", "security-scan"}
		}, want: want{"checks-passed #17": Exception}, says: []string{`required check "security-scan" has no run`}},
		{name: "direct push without a PR", change: func(s *scenario) {
			s.tied.Commits = append(s.tied.Commits, push1)
			s.tied.Details = append(s.tied.Details, detailOf(push1, "Dev", "dev@example.com", "2026-01-03T09:00:00Z", "Hotfix #42", []string{"main"}, merge))
		}, want: want{"reached-by-pr commit " + push1: Exception, "independent-approval commit " + push1: Exception, "checks-passed commit " + push1: Unknown},
			says: []string{"direct push to main"}},
		{name: "the pull request's commits not captured", change: func(s *scenario) {
			s.extra = map[string][]byte{"pr/sources.json": []byte(`{"v":1,"members":[{"arcname":"pr/pr_17.commits.json","source":"offline","path":".sdd/pr/pr_17.commits.json","requests":[]}]}`)}
		}, want: want{"reached-by-pr commit " + c1: Unknown, "independent-approval #17": Unknown, "approved-final-head #17": Unknown, "agent-work-reviewed #17": Unknown}},
		{name: "squash merge", change: func(s *scenario) {
			s.tied.Details[0].LandedOn.Branches = []string{"feature"}
			s.tied.Details[1] = detailOf(merge, "Dev", "dev@example.com", "2026-01-02T12:00:00Z", "Fix rounding (#17)", []string{"main"}, base)
		}},
		{name: "rebase merge", change: func(s *scenario) {
			s.commits = append(s.commits, ghCommitOf(c2, dev, "Dev", "dev@example.com", "2026-01-02T09:20:00Z", "Second", c1))
			s.pull["head"] = map[string]any{"sha": c2, "ref": "feature"}
			s.reviews[0]["commit_id"] = c2
			s.checkRuns[c2] = s.checkRuns[c1]
			// GitHub wrote the commits again on main: r1 (same author, date and subject as c1) and merge (c2's).
			r1 := "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
			s.tied.Commits = []string{r1, merge}
			s.tied.Details = []commitsjson.CommitDetail{
				detailOf(r1, "Dev", "dev@example.com", "2026-01-02T09:00:00Z", "Fix rounding", []string{"main"}, base),
				detailOf(merge, "Dev", "dev@example.com", "2026-01-02T09:20:00Z", "Second", []string{"main"}, r1),
			}
		}},
		{name: "rebase merge matched by patch id", change: func(s *scenario) {
			r1 := "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
			pid := "1234567890123456789012345678901234567890"
			s.tied.Details[0].LandedOn.Branches = []string{"feature"}
			s.tied.Details[0].PatchID = &pid
			d := detailOf(r1, "Dev", "dev@example.com", "2026-01-05T09:00:00Z", "Fix rounding, reworded", []string{"main"}, base)
			d.PatchID = &pid
			s.tied.Commits = append(s.tied.Commits, r1)
			s.tied.Details = append(s.tied.Details, d)
		}},
		{name: "merge queue", change: func(s *scenario) {
			s.pull["merged_by"] = bot("github-merge-queue[bot]", 9919)
			s.checkRuns = map[string][]map[string]any{merge: {{"name": "build", "status": "completed", "conclusion": "success", "completed_at": "2026-01-02T11:55:00Z", "head_sha": merge}}}
			s.statuses = nil
		}},
		{name: "agent-written file approved only by the agent's initiator", change: func(s *scenario) {
			// Ada (an agent) wrote the commit; ivan ran her and committed it; ivan is the only approver.
			ivan := human("ivan", 4)
			c := ghCommitOf(c1, nil, "Ada Agent", "ada@agents.example", "2026-01-02T09:00:00Z", "Fix rounding\n\nAssisted-by: Ada Agent", base)
			c["committer"] = ivan
			c["commit"].(map[string]any)["committer"] = map[string]any{"name": "Ivan", "email": "ivan@example.com", "date": "2026-01-02T09:00:00Z"}
			s.commits[0] = c
			s.reviews[0]["user"] = ivan
			s.attr = []logv1.Attribution{{Commit: c1, Path: "rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada", ToolCallID: "t1", Time: "2026-01-02T08:59:00Z", Line: 1}}}}
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception, "agent-work-reviewed #17": Exception},
			says: []string{"rounding.go written by ada", "approval by ivan, who is the committer of commit c1c1c1c1c1c1"}},
		{name: "agent-written file approved by another human", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada", ToolCallID: "t1", Time: "2026-01-02T08:59:00Z", Line: 1}}}}
		}},
		{name: "agent work approved by the initiator a lineage v2 record names", change: func(s *scenario) {
			// Rita is no author of the pull request, but the lineage v2 record says she started the agent's run.
			s.attr = []logv1.Attribution{{Commit: c1, Path: "rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada", Line: 1}}}}
			s.extra = map[string][]byte{"lineage/v2/children/" + strings.Repeat("ab", 32) + ".jsonl": []byte(
				`{"child_run_id":"r1","kind":"subagent.started","payload":{"initiator":{"login":"rita","id":2}},"seq":0,"task_id":"T","ts_ns":1,"v":2}` + "\n")}
		}, want: want{"agent-work-reviewed #17": Exception},
			says: []string{"approval by rita, who is the agent's initiator (lineage/v2/children/abab", "the agent's initiator rita, per the records in lineage/v2/children/"}},
		{name: "initiator recorded by GitHub's noreply address", change: func(s *scenario) {
			s.reviews[0]["user"] = carol
			s.attr = []logv1.Attribution{{Commit: c1, Path: "rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada", Line: 1}}}}
			s.extra = map[string][]byte{"audit/agents.jsonl": []byte(`{"event":"agent.started","ticket_id":"42","initiated_by":"Carol <3+Carol@users.noreply.github.com>"}` + "\n")}
		}, want: want{"agent-work-reviewed #17": Exception}, says: []string{"approval by carol, who is the agent's initiator (audit/agents.jsonl line 1)"}},
		{name: "initiator recorded by an address a commit ties to an account", change: func(s *scenario) {
			// dev@example.com is dev's account in the pull request's commits: rita is known not to be the initiator.
			s.attr = []logv1.Attribution{{Commit: c1, Path: "rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada", Line: 1}}}}
			s.extra = map[string][]byte{"audit/agents.jsonl": []byte(`{"event":"agent.started","initiator":"dev@example.com"}` + "\n")}
		}, says: []string{"approved by rita, not the agent's initiator (the agent's initiator dev@example.com, per the records in audit/agents.jsonl"}},
		{name: "initiator recorded by an address no account is known for", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada", Line: 1}}}}
			s.extra = map[string][]byte{"audit/agents.jsonl": []byte(`{"event":"agent.started","requested_by":"pat@example.com"}` + "\n")}
		}, want: want{"agent-work-reviewed #17": Unknown}, says: []string{"the agent's initiator pat@example.com (audit/agents.jsonl line 1) is tied to no GitHub account"}},
		{name: "an initiator record of another ticket is not read", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada", Line: 1}}}}
			s.extra = map[string][]byte{"lineage/tracker.jsonl": []byte(`{"ticket_id":"43","initiator":"rita"}` + "\n")}
		}, says: []string{"approved by rita, not the agent's initiator (no record in the bundle names the initiator, taken to be"}},
		{name: "agent work with require_codeowners", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
		}, want: want{"agent-work-reviewed #17": Unknown}},
		{name: "agent work approved by its CODEOWNERS owner", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "* @carol\nsrc/ @rita\n")}
		}},
		{name: "agent work approved by someone who does not own the path", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "src/ @rita\n/src/*.go @carol\n")}
		}, want: want{"agent-work-reviewed #17": Exception}, says: []string{"agent-written src/rounding.go is owned by @carol (.github/CODEOWNERS line 2, pattern /src/*.go)"}},
		{name: "agent work owned by a team", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "*.go @acme/payments\n")}
		}, want: want{"agent-work-reviewed #17": Unknown}},
		{name: "agent work owned by a team whose captured members include the approver", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "*.go @Acme/payments\n"),
				"pr/team_acme_payments.json": []byte(`[{"login":"carol","id":3,"type":"User"},{"login":"rita","id":2,"type":"User"}]`)}
		}},
		{name: "agent work owned by a team the approver is not in", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "*.go @acme/payments\n"),
				"pr/team_acme_payments.json": []byte(`[{"login":"carol","id":3,"type":"User"}]`)}
		}, want: want{"agent-work-reviewed #17": Exception}, says: []string{"agent-written src/rounding.go is owned by @acme/payments"}},
		{name: "agent work owned by a team the token could not read", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "*.go @acme/payments\n"),
				"pr/team_acme_payments.json": []byte(`{"not_readable":404,"message":"Not Found"}`)}
		}, want: want{"agent-work-reviewed #17": Unknown},
			says: []string{"the members of team @acme/payments were not readable (GitHub answered 404: Not Found; pr/team_acme_payments.json)"}},
		{name: "agent work owned by the approver's noreply address", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "*.go 2+rita@users.noreply.github.com\n")}
		}},
		{name: "agent work owned by an address a commit ties to another account", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "*.go DEV@example.com\n")}
		}, want: want{"agent-work-reviewed #17": Exception}, says: []string{"is owned by DEV@example.com"}},
		{name: "agent work owned by an address no account is known for", change: func(s *scenario) {
			s.attr = []logv1.Attribution{{Commit: c1, Path: "src/rounding.go", WrittenBy: []logv1.Writer{{AgentID: "ada"}}}}
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): codeowners(t0, "*.go pat@example.com\n")}
		}, want: want{"agent-work-reviewed #17": Unknown}, says: []string{"e-mail owner pat@example.com is tied to no GitHub account"}},
		{name: "agent commit's files from diff.patch, no CODEOWNERS at base", change: func(s *scenario) {
			s.commits[0]["commit"].(map[string]any)["message"] = "Fix rounding\n\nAssisted-by: Claude <noreply@anthropic.com>"
			s.pol.RequireCodeowners = true
			s.extra = map[string][]byte{CodeOwnersName(base): []byte(`{"v":1,"commit":"` + base + `","path":null,"content":null}`),
				"git/diff.patch": []byte("From " + c1 + " Mon Sep 17 00:00:00 2001\nSubject: x\n\ndiff --git a/src/r.go b/src/r.go\n")}
		}},
		{name: "commit before the ticket was opened", change: func(s *scenario) {
			s.issue["created_at"] = "2026-01-02T09:30:00Z"
		}, want: want{"ticket-open #17": Exception}, says: []string{"while ticket #42 was not open"}},
		{name: "merge after the ticket was closed", change: func(s *scenario) {
			s.events = []map[string]any{{"event": "closed", "actor": dev, "created_at": "2026-01-02T11:00:00Z"}}
		}, want: want{"ticket-open #17": Exception}, says: []string{"the merge at 2026-01-02T12:00:00Z"}},
		{name: "reopened ticket", change: func(s *scenario) {
			s.events = []map[string]any{{"event": "closed", "created_at": "2026-01-01T11:00:00Z"}, {"event": "reopened", "created_at": "2026-01-02T08:00:00Z"}}
		}},
		{name: "protection not readable", change: func(s *scenario) {
			s.prot = map[string]any{"not_readable": 404, "message": "Not Found"}
			s.rules = []map[string]any{}
		}, want: want{"checks-passed #17": Unknown}},
		{name: "protection not readable, rules name the checks", change: func(s *scenario) {
			s.prot = map[string]any{"not_readable": 403, "message": "Resource not accessible by integration"}
		}},
		{name: "ticket in another tracker", change: func(s *scenario) {
			s.tied.Tracker, s.tied.TicketID = "jira", "ENG-42"
		}, want: want{"ticket-open #17": Unknown}},
		{name: "jira ticket with tracker records", change: func(s *scenario) {
			s.tied.Tracker, s.tied.TicketID = "jira", "ENG-42"
			s.extra = map[string][]byte{"lineage/tracker_audit.jsonl": []byte(`{"event":"ticket.opened","ticket_id":"ENG-42","ts":"2026-01-02T09:30:00Z"}
{"event":"ticket.opened","ticket_id":"ENG-420","ts":"2026-01-01T00:00:00Z"}
`)}
		}, want: want{"ticket-open #17": Exception}, says: []string{"commit c1c1c1c1c1c1 at 2026-01-02T09:00:00Z, while ticket ENG-42 was not open", "lineage/tracker_audit.jsonl, written in .sdd, not the tracker's own answer"}},
		{name: "reviews only an offline copy", change: func(s *scenario) {
			s.extra = map[string][]byte{"pr/sources.json": []byte(`{"v":1,"members":[{"arcname":"pr/pr_17.reviews.json","source":"offline","path":".sdd/pr/pr_17.reviews.json","requests":[]}]}`)}
		}, want: want{"independent-approval #17": Unknown, "approved-final-head #17": Unknown, "agent-work-reviewed #17": Pass}},
		{name: "two approvals required", change: func(s *scenario) {
			s.pol.RequiredApprovals = 2
		}, want: want{"independent-approval #17": Exception, "approved-final-head #17": Exception}, says: []string{"1 of 2 required independent approvals (the policy)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := baseline()
			tc.change(s)
			res := Evaluate(s.input(t), &s.pol)
			got := map[string]string{}
			for _, o := range res.Outcomes {
				got[o.Control+" "+o.Subject] = o.Status
			}
			for k, w := range tc.want {
				if got[k] != w {
					t.Errorf("%s: got %q, want %q", k, got[k], w)
				}
			}
			for k, g := range got {
				if _, named := tc.want[k]; !named && g != Pass {
					t.Errorf("%s: got %q, want pass", k, g)
				}
			}
			if _, ok := got[ReachedByPR+" commit "+merge]; !ok && tc.name != "rebase merge" {
				t.Errorf("no reached-by-pr outcome for the merge commit")
			}
			for _, c := range []string{IndependentApproval, ApprovedFinalHead, ChecksPassed, AgentWorkReviewed, TicketOpen} {
				if _, ok := got[c+" #17"]; !ok {
					t.Errorf("no %s outcome for #17", c)
				}
			}
			text := res.Text()
			for _, w := range tc.says {
				if !strings.Contains(text, w) {
					t.Errorf("the report does not say %q", w)
				}
			}
			if t.Failed() {
				t.Log("\n" + text)
			}
			if exc := res.HasException(false); exc != (res.Counts.Exception > 0) {
				t.Errorf("HasException = %v", exc)
			}
		})
	}
}

// A bundle made without pull request evidence (--no-pr) says nothing of how its commits reached main: unknown,
// never a direct push.
func TestNoPullRequestEvidence(t *testing.T) {
	s := baseline()
	in := s.input(t)
	for name := range in.Members {
		if strings.HasPrefix(name, "pr/") {
			delete(in.Members, name)
		}
	}
	res := Evaluate(in, &policy.Policy{ProtectedBranches: []string{"main"}})
	for _, o := range res.Outcomes {
		if o.Status == Exception || (o.Control == ReachedByPR && o.Status != Unknown) {
			t.Errorf("%s %s: %s (%s)", o.Control, o.Subject, o.Status, o.Detail)
		}
	}
	if res.Counts.Unknown == 0 || !strings.Contains(res.Text(), "carries no pull request evidence") {
		t.Errorf("\n%s", res.Text())
	}
}

// People named like agents are not agents; agents' addresses are.
func TestIsAgent(t *testing.T) {
	a := &audit{pol: &policy.Policy{TrustedBots: []string{"dependabot[bot]"}}}
	for _, c := range []struct {
		name, email string
		u           *ghUser
		want        bool
	}{
		{"Claude Monet", "claude@example.com", nil, false},
		{"Devin Smith", "devin@example.com", nil, false},
		{"Claude", "noreply@anthropic.com", nil, true},
		{"Cursor Agent", "cursoragent@cursor.com", nil, true},
		{"Ada Agent", "ada@agents.example", nil, true},
		{"x", "y@example.com", &ghUser{Login: "renovate[bot]", Type: "Bot"}, true},
		{"x", "y@example.com", &ghUser{Login: "dependabot[bot]", Type: "Bot"}, false},
	} {
		if got := a.isAgent(c.name, c.email, c.u); got != c.want {
			t.Errorf("isAgent(%q, %q) = %v", c.name, c.email, got)
		}
	}
}
