package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
	"github.com/git-bernstein/git-bernstein/internal/github"
	"github.com/git-bernstein/git-bernstein/internal/prcapture"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// prFlags are bundle's pull request flags (--no-pr is among bundleFlags).
func prFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.IntSliceFlag{Name: "pr", Usage: "also fetch pull request `NUMBER` (repeatable); others are found from merge commits, squash subjects and the GitHub API"},
		&ucli.StringFlag{Name: "github-repo", Usage: "GitHub repository `OWNER/NAME` (default: git config bernstein.githubRepo, else the URL of the origin remote or of git config bernstein.remote)"},
		&ucli.StringFlag{Name: "github-api-url", Usage: "GitHub API `URL`, used as given; GitHub Enterprise: https://HOST/api/v3 (default: GITHUB_API_URL, else git config bernstein.githubApiUrl, else https://api.github.com/)"},
		&ucli.BoolFlag{Name: "require-pr", Usage: "fail (exit 1, no archive) when a pull request payload is missing or none is found"},
		&ucli.BoolFlag{Name: "controls", HideDefault: true, Usage: "also capture each pull request's change-control evidence (commits, timeline, checks, branch rules and protection, the GitHub ticket's events) for git bernstein audit (default: git config bernstein.controls, else off)"},
	}
}

// captureControls is --controls, else git config bernstein.controls: off by default, since the evidence costs
// several requests a pull request (60 an hour without a token).
func (s *session) captureControls(c *ucli.Command) (bool, error) {
	set, err := s.settings(c)
	if err != nil {
		return false, err
	}
	return set.Controls, set.Err("bernstein.controls")
}

// prRequest is how this bundle invocation captures the ticket's pull requests (its Commits are the bundle's
// to fill); nil under --no-pr, which makes no request at all. A flag or setting that cannot be used is the
// error, which the bundle returns when it asks for the pull requests, once it found the commits.
func (s *session) prRequest(c *ucli.Command, tk ticket.Ticket, sdd string) (*prcapture.Request, error) {
	noPR, err := s.noPR(c)
	if err != nil {
		return nil, err
	}
	if noPR {
		if c.Bool("require-pr") || len(c.IntSlice("pr")) > 0 || c.Bool("controls") {
			return nil, usageError("--no-pr contradicts --require-pr, --pr and --controls: give one or the other")
		}
		return nil, nil
	}
	numbers := c.IntSlice("pr")
	for _, n := range numbers {
		if n <= 0 {
			return nil, usageError("--pr %d is not a pull request number", n)
		}
	}
	return s.captureRequest(c, tk, prQuery{numbers: numbers, sdd: sdd, requirePR: c.Bool("require-pr")})
}

// noPR is --no-pr, else git config bernstein.pullRequests false, unless a flag asks for pull requests (--pr,
// --require-pr, --controls): then the flags decide (settings.Load).
func (s *session) noPR(c *ucli.Command) (bool, error) {
	set, err := s.settings(c)
	if err != nil {
		return false, err
	}
	if err := set.Err("bernstein.pullRequests"); err != nil {
		return false, fmt.Errorf("git config bernstein.pullRequests: %w (give true or false)", err)
	}
	return set.NoPR, nil
}

// prQuery is what one capture of a ticket's pull requests needs beside the ticket and its commits.
type prQuery struct {
	numbers   []int
	sdd       string
	requirePR bool
	// deadline, when set, is the post-merge hook's: the capture may take at most half the time left, so that
	// the bundle is still written with what came back.
	deadline time.Time
}

// captureRequest is how bundle, record and the hook capture a ticket's pull requests (prcapture.Request): the
// flags and settings read into it, with --controls or bernstein.controls for the change-control evidence.
func (s *session) captureRequest(c *ucli.Command, tk ticket.Ticket, q prQuery) (*prcapture.Request, error) {
	gs, err := s.githubSettings(c)
	if err != nil {
		return nil, err
	}
	captureControls, err := s.captureControls(c)
	if err != nil {
		return nil, err
	}
	return &prcapture.Request{Ticket: tk, Numbers: q.numbers, SDD: q.sdd, RequirePR: q.requirePR,
		Controls: captureControls, Repo: s.repo, Timeout: s.env.prTimeout(), Deadline: q.deadline, Now: s.env.now,
		GitHub: gs}, nil
}

// githubSettings are the flags and settings that choose the GitHub repository and server (github.Settings):
// the token comes from GITHUB_TOKEN, else GH_TOKEN, and goes nowhere but the Authorization header.
func (s *session) githubSettings(c *ucli.Command) (github.Settings, error) {
	set, err := s.settings(c)
	if err != nil {
		return github.Settings{}, err
	}
	token := s.env.getenv("GITHUB_TOKEN")
	if token == "" {
		token = s.env.getenv("GH_TOKEN")
	}
	return github.Settings{Source: set.GithubSource(), APIURL: set.GithubAPIURL, APIURLFrom: set.GithubAPIURLFrom,
		Token: token, UserAgent: "git-bernstein/" + buildinfo.Version(),
		CacheDir: filepath.Join(s.repo.CommonDir, "bernstein", "github-cache")}, nil
}

// githubUsage makes a GitHub flag's bad value (github.FlagError) a usage error: exit 2.
func githubUsage(err error) error {
	var bad *github.FlagError
	if errors.As(err, &bad) {
		return usageError("%v", bad)
	}
	return err
}
