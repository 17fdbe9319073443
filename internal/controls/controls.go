package controls

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/commitsjson"
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/policy"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
)

// Control ids, as --json spells them.
const (
	ReachedByPR         = "reached-by-pr"
	IndependentApproval = "independent-approval"
	ApprovedFinalHead   = "approved-final-head"
	ChecksPassed        = "checks-passed"
	AgentWorkReviewed   = "agent-work-reviewed"
	TicketOpen          = "ticket-open"
)

// Statuses.
const (
	Pass      = "pass"
	Exception = "exception"
	Unknown   = "unknown"
)

// Version is the "v" of the --json document.
const Version = 1

// Input is what the controls read: signed members by arcname (git/commits.json and the pr/ members), and the
// attribution the verifier joined from lineage v1.
type Input struct {
	Members     map[string][]byte
	Attribution []logv1.Attribution
}

// Reads says whether the controls read a member: git/commits.json, git/diff.patch (the files of agent
// commits), git/codeowners/, git/patchids/, every pr/ member, and the tracker and initiator records (audit/,
// lineage/*.jsonl, lineage/v2/children/). A caller keeps only these from the verifier's read.
func Reads(name string) bool {
	return name == "git/commits.json" || name == "git/diff.patch" || strings.HasPrefix(name, "git/codeowners/") ||
		strings.HasPrefix(name, "git/patchids/") || strings.HasPrefix(name, "pr/") ||
		initiatorMember(name)
}

// Evidence points at what an exception rests on.
type Evidence struct {
	Member  string `json:"member"`
	Pointer string `json:"pointer"` // RFC 6901 JSON pointer into Member
	Who     string `json:"who,omitempty"`
	Commit  string `json:"commit,omitempty"`
	When    string `json:"when,omitempty"`
	What    string `json:"what"`
}

// Outcome is one control's answer for one subject.
type Outcome struct {
	Control  string     `json:"control"`
	Subject  string     `json:"subject"` // "#17" or "commit <sha>"
	PR       int        `json:"pr,omitempty"`
	Commit   string     `json:"commit,omitempty"`
	Status   string     `json:"status"`
	Detail   string     `json:"detail"`
	Evidence []Evidence `json:"evidence"`
}

// Result is the audit: every outcome, control by control in the order above, subjects in bundle order.
type Result struct {
	V        int       `json:"v"`
	Tracker  string    `json:"tracker"`
	TicketID string    `json:"ticket_id"`
	Outcomes []Outcome `json:"outcomes"`
	Counts   Counts    `json:"counts"`
	// Notes are things the auditor should know that are no one control's (an unreadable member).
	Notes []string `json:"notes"`
}

// Counts sums the outcomes.
type Counts struct {
	Pass      int `json:"pass"`
	Exception int `json:"exception"`
	Unknown   int `json:"unknown"`
}

// HasException says whether any control gave an exception; with strict, an unknown counts as one too.
func (r *Result) HasException(strict bool) bool {
	return r.Counts.Exception > 0 || (strict && r.Counts.Unknown > 0)
}

// JSON is the --json document, the one the page renders.
func (r *Result) JSON() []byte {
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// ControlIDs lists the controls in the order they are evaluated and printed.
var ControlIDs = []string{ReachedByPR, IndependentApproval, ApprovedFinalHead, ChecksPassed, AgentWorkReviewed, TicketOpen}

// Evaluate runs every control.
func Evaluate(in Input, pol *policy.Policy) *Result {
	if pol == nil {
		pol = &policy.Policy{}
	}
	a := load(in, pol)
	res := &Result{V: Version, Outcomes: []Outcome{}, Notes: append([]string{}, a.notes...)}
	if a.commits != nil {
		res.Tracker, res.TicketID = a.commits.Tracker, a.commits.TicketID
	}
	for _, run := range []func() []Outcome{a.reachedByPR, a.independentApproval, a.approvedFinalHead, a.checksPassed, a.agentWorkReviewed, a.ticketOpen} {
		for _, o := range run() {
			if o.Evidence == nil {
				o.Evidence = []Evidence{}
			}
			res.Outcomes = append(res.Outcomes, o)
			switch o.Status {
			case Pass:
				res.Counts.Pass++
			case Exception:
				res.Counts.Exception++
			default:
				res.Counts.Unknown++
			}
		}
	}
	return res
}

// audit is the evidence read once.
type audit struct {
	in      Input
	pol     *policy.Policy
	commits *commitsjson.Commits
	offline map[string]string // arcname → why it is not evidence
	prs     []*pull
	notes   []string
	// initiators are the agent initiators the bundle's records name; set by recordedInitiators().
	initiators *[]initiator
}

// pull is one pull request with what was captured of it.
type pull struct {
	n        int
	p        ghPull
	reviews  []ghReview
	revErr   string // why the reviews are unknown
	commits  []ghCommit
	comErr   string
	timeline []ghEvent
	tlErr    string
	// counted are the approvals independent-approval counts (index into reviews); set by approvals().
	approvals *approvalSet
	// patchIDs are git/patchids/pr_<N>.json's ids by commit; set by patchIDs().
	patchIDs map[string]string
}

func (p *pull) subject() string { return fmt.Sprintf("#%d", p.n) }
func (p *pull) merged() bool    { return p.p.MergedAt != nil && *p.p.MergedAt != "" }
func (p *pull) mergedAt() string {
	if p.p.MergedAt == nil {
		return ""
	}
	return *p.p.MergedAt
}
func (p *pull) mergeSHA() string {
	if p.p.MergeCommitSHA == nil {
		return ""
	}
	return *p.p.MergeCommitSHA
}

// mergeQueue says whether the pull request merged through a merge queue: the timeline says it was added to one,
// or the merger is GitHub's merge queue.
func (p *pull) mergeQueue() bool {
	if p.p.MergedBy != nil && strings.HasPrefix(strings.ToLower(p.p.MergedBy.Login), "github-merge-queue") {
		return true
	}
	for _, e := range p.timeline {
		if e.Event == "added_to_merge_queue" {
			return true
		}
	}
	return false
}

func load(in Input, pol *policy.Policy) *audit {
	a := &audit{in: in, pol: pol, offline: map[string]string{}}
	if data, ok := in.Members[prsource.Arcname]; ok {
		if src, err := prsource.Parse(data); err == nil {
			for _, m := range src.Members {
				if m.Source == prsource.Offline {
					a.offline[m.Arcname] = "it is an offline copy (" + m.Describe("") + ")"
				}
			}
		}
	}
	if data, ok := in.Members["git/commits.json"]; ok {
		if c, err := commitsjson.Parse(data); err == nil {
			a.commits = c
		} else {
			a.notes = append(a.notes, "git/commits.json: "+err.Error())
		}
	}
	var numbers []int
	for name := range in.Members {
		rest, ok := strings.CutPrefix(name, "pr/pr_")
		if !ok {
			continue
		}
		num, ok := strings.CutSuffix(rest, ".json")
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(num); err == nil && n > 0 && strconv.Itoa(n) == num {
			numbers = append(numbers, n)
		}
	}
	sort.Ints(numbers)
	for _, n := range numbers {
		name := fmt.Sprintf("pr/pr_%d.json", n)
		p := &pull{n: n}
		if why := a.offline[name]; why != "" {
			a.notes = append(a.notes, fmt.Sprintf("#%d is not audited: %s is not evidence: %s", n, name, why))
			continue
		}
		if err := decode(name, in.Members[name], &p.p); err != nil {
			a.notes = append(a.notes, err.Error())
			continue
		}
		p.revErr = a.read(fmt.Sprintf("pr/pr_%d.reviews.json", n), &p.reviews)
		p.comErr = a.read(CommitsName(n), &p.commits)
		p.tlErr = a.read(TimelineName(n), &p.timeline)
		sort.SliceStable(p.reviews, func(i, j int) bool { return p.reviews[i].SubmittedAt < p.reviews[j].SubmittedAt })
		a.prs = append(a.prs, p)
	}
	return a
}

// read decodes a member into v and returns "" or why it is not evidence.
func (a *audit) read(name string, v any) string {
	data, ok := a.in.Members[name]
	if !ok {
		return name + " was not captured"
	}
	if why := a.offline[name]; why != "" {
		return name + " is not evidence: " + why
	}
	if err := decode(name, data, v); err != nil {
		return err.Error()
	}
	return ""
}

// merged lists the merged pull requests.
func (a *audit) merged() []*pull {
	var out []*pull
	for _, p := range a.prs {
		if p.merged() {
			out = append(out, p)
		}
	}
	return out
}

// before says whether RFC 3339 time x is at or before y; false when either does not read.
func before(x, y string) bool {
	tx, err1 := time.Parse(time.RFC3339, x)
	ty, err2 := time.Parse(time.RFC3339, y)
	return err1 == nil && err2 == nil && !tx.After(ty)
}

func after(x, y string) bool {
	tx, err1 := time.Parse(time.RFC3339, x)
	ty, err2 := time.Parse(time.RFC3339, y)
	return err1 == nil && err2 == nil && tx.After(ty)
}

// short is a commit id's first 12 digits.
func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// pointer escapes a JSON pointer token (RFC 6901 section 3).
func pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		s := fmt.Sprint(t)
		s = strings.ReplaceAll(s, "~", "~0")
		s = strings.ReplaceAll(s, "/", "~1")
		b.WriteString("/" + s)
	}
	return b.String()
}
