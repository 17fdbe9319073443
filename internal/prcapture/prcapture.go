// Package prcapture is what bundle, record and the post-merge hook pack of a ticket's pull requests: their
// payloads and reviews as GitHub (or the offline copies in .sdd/pr) gives them (package github), and with
// change controls their evidence, the CODEOWNERS file at each base (read from git, never the API), the members
// of the teams those name, and each reviewed head's patch ids (package prpatch). Under the hook's budget each
// step takes at most half the time left, so that the bundle is still written with what came back.
package prcapture

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/github"
	"github.com/git-bernstein/git-bernstein/internal/prpatch"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// MinTimeout is the least time worth asking GitHub with: less gives a warning and nothing else.
const MinTimeout = 200 * time.Millisecond

// Request is one ticket's pull requests to capture: Ticket and its Commits, the numbers asked for besides
// (--pr), the .sdd folder with offline copies, and whether a missing payload fails (RequirePR) and change
// controls are captured (Controls, from Repo's git too). GitHub chooses the repository and server (its Client:
// none, with the reason, when no repository is known; an error for a bad setting); Timeout is the request
// timeout asked for. Deadline, when set, is the hook's: Now reads the clock, and Stopped, when
// set, hears that GitHub could not be asked in full (offline, no answer in time, rate limit, no time left).
type Request struct {
	Ticket    ticket.Ticket
	Commits   *discover.Commits
	Numbers   []int
	SDD       string
	RequirePR bool
	Controls  bool
	Repo      *gitext.Repo
	GitHub    github.Settings
	Timeout   time.Duration
	Deadline  time.Time
	Now       func() time.Time
	Stopped   func()
}

// Capture asks GitHub (and the offline copies) for the ticket's pull requests and, with Controls, their
// change-control evidence, CODEOWNERS, team members and patch ids, as the bundle packs them.
func Capture(ctx context.Context, req Request) (*bundle.PRSet, error) {
	stopped := func() {
		if req.Stopped != nil {
			req.Stopped()
		}
	}
	timeout := req.Timeout
	if !req.Deadline.IsZero() {
		left := (req.Deadline.Sub(req.Now()) / 2).Truncate(100 * time.Millisecond)
		if left < timeout {
			timeout = left
		}
		if timeout < MinTimeout {
			stopped()
			return &bundle.PRSet{Warnings: []string{fmt.Sprintf("pull requests of %s: not asked, the time budget "+
				"(bernstein.hookBudget) is used up", req.Ticket.ID)}}, nil
		}
	}
	client, unavailable, err := req.GitHub.Client(timeout)
	if err != nil {
		return nil, err
	}
	res := github.Fetch(ctx, client, github.Query{Ticket: req.Ticket, Numbers: req.Numbers, Commits: req.Commits,
		SDD: req.SDD, Unavailable: unavailable, Controls: req.Controls})
	if res.Stopped {
		stopped()
	}
	if req.RequirePR {
		if err := requirePR(req.Ticket, res); err != nil {
			return nil, err
		}
	}
	set := &bundle.PRSet{Landed: res.Landed, Warnings: res.Warnings, Controls: members(res.Controls)}
	if req.Controls {
		var warnings []string
		set.CodeOwners, warnings = codeOwnersMembers(req.Repo, res.PRs)
		set.Warnings = append(set.Warnings, warnings...)
		if teams := codeOwnersTeams(set.CodeOwners); client != nil && len(teams) > 0 && !res.Stopped {
			tctx, cancel := ctx, func() {}
			if !req.Deadline.IsZero() {
				tctx, cancel = context.WithDeadline(ctx, halfway(req.Now(), req.Deadline))
			}
			ms, warnings, teamsStopped := client.TeamMembers(tctx, teams)
			cancel()
			if teamsStopped {
				stopped()
			}
			set.Controls = append(set.Controls, members(ms)...)
			set.Warnings = append(set.Warnings, warnings...)
		}
		var until time.Time
		if !req.Deadline.IsZero() {
			until = halfway(req.Now(), req.Deadline)
		}
		set.PatchIDs = patchIDMembers(req.Repo, res.PRs, until, req.Now)
	}
	for _, pr := range res.PRs {
		set.PRs = append(set.PRs, bundle.PR{Number: pr.Number, Payload: pr.Payload, Reviews: pr.Reviews,
			PayloadFrom: pr.PayloadFrom, ReviewsFrom: pr.ReviewsFrom, Controls: members(pr.Controls)})
	}
	return set, nil
}

// halfway is the time halfway from now to deadline: what one more step of the hook's capture may take.
func halfway(now, deadline time.Time) time.Time {
	return now.Add(deadline.Sub(now) / 2)
}

// patchIDMembers computes git/patchids/pr_<N>.json for each pull request (package prpatch); a deadline that
// passes leaves the rest out, and approved-final-head then falls back to the trees GitHub gives.
func patchIDMembers(repo *gitext.Repo, prs []github.PR, deadline time.Time, now func() time.Time) []bundle.PRMember {
	in := make([]prpatch.PR, len(prs))
	for i, pr := range prs {
		in[i] = prpatch.PR{Number: pr.Number, Payload: pr.Payload, Reviews: pr.Reviews}
	}
	ms, _ := prpatch.Members(repo, in, deadline, now)
	out := make([]bundle.PRMember, len(ms))
	for i, m := range ms {
		out[i] = bundle.PRMember{Name: m.Name, Data: m.Data}
	}
	return out
}

// members hands the change-control members over to the bundle.
func members(ms []github.Member) []bundle.PRMember {
	var out []bundle.PRMember
	for _, m := range ms {
		out = append(out, bundle.PRMember{Name: m.Name, Data: m.Data, From: m.From})
	}
	return out
}

// requirePR is --require-pr: a pull request found without its payload, or none found, fails the bundle.
func requirePR(tk ticket.Ticket, res *github.Result) error {
	why := ""
	if len(res.Warnings) > 0 {
		why = ": " + strings.Join(res.Warnings, "; ")
	}
	switch {
	case len(res.Missing) > 0:
		nums := make([]string, len(res.Missing))
		for i, n := range res.Missing {
			nums[i] = fmt.Sprintf("#%d", n)
		}
		return fmt.Errorf("--require-pr: no payload for pull request %s%s", strings.Join(nums, ", "), why)
	case len(res.PRs) == 0:
		if why == "" {
			why = "; name one with --pr N, or check --github-repo"
		}
		return fmt.Errorf("--require-pr: no pull request of %s found%s", tk.ID, why)
	}
	return nil
}
