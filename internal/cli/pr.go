package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/discover"
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

// prFunc returns how this bundle invocation finds the ticket's pull requests; nil under --no-pr, which makes no
// request at all. The token comes from GITHUB_TOKEN, else GH_TOKEN, and goes nowhere but the Authorization header.
func (s *session) prFunc(ctx context.Context, c *ucli.Command, tk ticket.Ticket, sdd string) bundle.PRFunc {
	noPR, err := s.noPR(c)
	if err != nil {
		return func(*discover.Commits) (*bundle.PRSet, error) { return nil, err }
	}
	if noPR {
		if c.Bool("require-pr") || len(c.IntSlice("pr")) > 0 || c.Bool("controls") {
			return func(*discover.Commits) (*bundle.PRSet, error) {
				return nil, usageError("--no-pr contradicts --require-pr, --pr and --controls: give one or the other")
			}
		}
		return nil
	}
	return func(commits *discover.Commits) (*bundle.PRSet, error) {
		numbers := c.IntSlice("pr")
		for _, n := range numbers {
			if n <= 0 {
				return nil, usageError("--pr %d is not a pull request number", n)
			}
		}
		return s.fetchPRs(ctx, c, tk, commits, prQuery{numbers: numbers, sdd: sdd, requirePR: c.Bool("require-pr")})
	}
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

// prQuery is what one fetch of a ticket's pull requests needs beside the ticket and its commits.
type prQuery struct {
	numbers   []int
	sdd       string
	requirePR bool
	// deadline, when set, is the post-merge hook's: the fetch may take at most half the time left, so that the
	// bundle is still written with what came back.
	deadline time.Time
	// stopped, when set, hears that GitHub could not be asked in full (offline, no answer in time, rate limit,
	// no time left): asking again later gives more.
	stopped func()
}

// fetchPRs is how bundle, record and the hook capture a ticket's pull requests (prcapture.Capture): the flags
// and settings read into its request, with --controls or bernstein.controls for the change-control evidence.
func (s *session) fetchPRs(ctx context.Context, c *ucli.Command, tk ticket.Ticket, commits *discover.Commits, q prQuery) (*bundle.PRSet, error) {
	gs, err := s.githubSettings(c)
	if err != nil {
		return nil, err
	}
	captureControls, err := s.captureControls(c)
	if err != nil {
		return nil, err
	}
	return prcapture.Capture(ctx, prcapture.Request{Ticket: tk, Commits: commits, Numbers: q.numbers, SDD: q.sdd,
		RequirePR: q.requirePR, Controls: captureControls, Repo: s.repo, Timeout: s.env.prTimeout(),
		Deadline: q.deadline, Now: s.env.now, Stopped: q.stopped, GitHub: gs})
}

// githubSettings are the flags and settings that choose the GitHub repository and server (github.Settings):
// the token comes from GITHUB_TOKEN, else GH_TOKEN, and goes nowhere but the Authorization header.
func (s *session) githubSettings(c *ucli.Command) (github.Settings, error) {
	set, err := s.settings(c)
	if err != nil {
		return github.Settings{}, err
	}
	url, _ := s.cfg.Get("remote." + set.Remote + ".url")
	token := s.env.getenv("GITHUB_TOKEN")
	if token == "" {
		token = s.env.getenv("GH_TOKEN")
	}
	return github.Settings{APIURL: set.GithubAPIURL, APIURLFrom: set.GithubAPIURLFrom, Repo: set.GithubRepo,
		RepoFrom: set.GithubRepoFrom, Remote: set.Remote, RemoteChosen: set.RemoteChosen, RemoteURL: url, Token: token,
		UserAgent: "git-bernstein/" + buildinfo.Version(), CacheDir: filepath.Join(s.repo.CommonDir, "bernstein", "github-cache")}, nil
}

// githubRepo is the repository the settings choose (github.Settings.Choose); a bad --github-repo is a usage error.
func (s *session) githubRepo(c *ucli.Command) (github.Choice, error) {
	gs, err := s.githubSettings(c)
	if err != nil {
		return github.Choice{}, err
	}
	choice, err := gs.Choose()
	return choice, githubUsage(err)
}

// githubUsage makes a GitHub flag's bad value (github.FlagError) a usage error: exit 2.
func githubUsage(err error) error {
	var bad *github.FlagError
	if errors.As(err, &bad) {
		return usageError("%v", bad)
	}
	return err
}
