package github

import (
	"context"
	"regexp"
	"strconv"

	gh "github.com/google/go-github/v62/github"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// maxListPages bounds the search of the repository's pull requests by head branch: the 300 most recently
// updated ones. Older pull requests are still found through merge commits, squash subjects and --pr.
const maxListPages = 3

// squashRe is the "(#N)" GitHub appends to the subject of a squash or rebase merge.
var squashRe = regexp.MustCompile(`\(#([0-9]+)\)\s*$`)

// NumbersFromCommits returns the pull request numbers the tied commits name, in commit order: GitHub merge
// commits ("Merge pull request #N from …") and squash subjects ending in "(#N)".
func NumbersFromCommits(commits *gitext.Commits) []int {
	if commits == nil {
		return nil
	}
	var out []int
	for _, d := range commits.Details {
		if len(d.Parents) > 1 {
			if n, err := strconv.Atoi(gitext.PullRequestNumber(d.Subject)); err == nil && n > 0 {
				out = append(out, n)
			}
			continue
		}
		if m := squashRe.FindStringSubmatch(d.Subject); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				out = append(out, n)
			}
		}
	}
	return out
}

// numbersForCommit asks GitHub which pull requests contain sha. GitHub answers 422 for a commit it does not
// have (not pushed yet): that is no pull request, not a failure.
func (c *Client) numbersForCommit(ctx context.Context, sha string) ([]int, error) {
	var pulls []*gh.PullRequest
	err := c.retry(ctx, func() (*gh.Response, error) {
		var resp *gh.Response
		var err error
		pulls, resp, err = c.gh.PullRequests.ListPullRequestsWithCommit(ctx, c.repo.Owner, c.repo.Name, sha, &gh.ListOptions{PerPage: 100})
		return resp, err
	})
	if statusOf(err) == 422 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []int
	for _, p := range pulls {
		if n := p.GetNumber(); n > 0 {
			out = append(out, n)
		}
	}
	return out, nil
}

// numbersByHead lists the repository's pull requests, open and closed, most recently updated first, and returns
// those whose head branch names the ticket (as a token, so ENG-42 does not pick up ENG-420-x).
func (c *Client) numbersByHead(ctx context.Context, tk ticket.Ticket) ([]int, error) {
	var out []int
	opts := &gh.PullRequestListOptions{State: "all", Sort: "updated", Direction: "desc", ListOptions: gh.ListOptions{PerPage: 100}}
	for page := 0; page < maxListPages; page++ {
		var pulls []*gh.PullRequest
		var next int
		err := c.retry(ctx, func() (*gh.Response, error) {
			var resp *gh.Response
			var err error
			pulls, resp, err = c.gh.PullRequests.List(ctx, c.repo.Owner, c.repo.Name, opts)
			if resp != nil {
				next = resp.NextPage
			}
			return resp, err
		})
		if err != nil {
			return out, err
		}
		for _, p := range pulls {
			if tk.NamedInRef(p.GetHead().GetRef()) && p.GetNumber() > 0 {
				out = append(out, p.GetNumber())
			}
		}
		if next == 0 {
			break
		}
		opts.Page = next
	}
	return out, nil
}
