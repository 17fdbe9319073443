package prcapture

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/github"
	"github.com/git-bernstein/git-bernstein/internal/github/githubtest"
	"github.com/git-bernstein/git-bernstein/internal/githubrepo"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

func captureRequest(t *testing.T, gs github.Settings) Request {
	t.Helper()
	g := gittest.New(t)
	g.Commit("Add login\n\nRefs: #42", map[string]string{"login.go": "1\n"})
	repo, err := gitext.Discover(g.Dir, g.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := ticket.Parse("github", "42")
	if err != nil {
		t.Fatal(err)
	}
	gs.UserAgent, gs.CacheDir = "test", t.TempDir()
	return Request{Ticket: tk, Commits: &discover.Commits{}, SDD: t.TempDir(), Repo: repo, GitHub: gs,
		Timeout: 5 * time.Second, Now: time.Now}
}

// Capture asks the fake GitHub for --pr 17 and packs its payload and reviews.
func TestCaptureFetches(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	req := captureRequest(t, github.Settings{APIURL: srv.APIURL(), APIURLFrom: "--github-api-url",
		Source: githubrepo.Source{Repo: "acme/app", RepoFrom: "--github-repo"}})
	req.Numbers, req.RequirePR = []int{17}, true
	set, err := Capture(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.PRs) != 1 || set.PRs[0].Number != 17 || len(set.PRs[0].Payload) == 0 || set.PRs[0].Reviews == nil {
		t.Errorf("captured %+v", set.PRs)
	}
}

// Under the hook's budget no time left is a warning and Stopped, GitHub not asked. --require-pr fails a ticket
// with no pull request (here no remote names the repository, which a local-only clone keeps quiet about); a
// bad flag is a FlagError.
func TestCaptureBudgetAndRequirePR(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	stops := 0
	req := captureRequest(t, github.Settings{APIURL: srv.APIURL(), APIURLFrom: "--github-api-url",
		Source: githubrepo.Source{Repo: "acme/app", RepoFrom: "--github-repo"}})
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	req.Now, req.Stopped, req.Numbers = func() time.Time { return now }, func() { stops++ }, []int{17}
	req.Deadline = now.Add(300 * time.Millisecond)
	set, err := Capture(context.Background(), req)
	if err != nil || len(srv.Requests()) != 0 || stops != 1 || len(set.Warnings) != 1 || len(set.PRs) != 0 ||
		!strings.Contains(set.Warnings[0], "not asked, the time budget (bernstein.hookBudget) is used up") {
		t.Errorf("no time left: %+v %v; %d requests, %d stops", set, err, len(srv.Requests()), stops)
	}
	req.Deadline, req.RequirePR, req.Numbers = time.Time{}, true, nil
	req.GitHub = github.Settings{Source: githubrepo.Source{Remote: "origin"}}
	_, err = Capture(context.Background(), req)
	if err == nil || err.Error() != "--require-pr: no pull request of 42 found; name one with --pr N, or check --github-repo" {
		t.Errorf("--require-pr with nothing found: %v", err)
	}
	req.GitHub = github.Settings{APIURL: "ftp://example.com", APIURLFrom: "--github-api-url"}
	var bad *github.FlagError
	if _, err := Capture(context.Background(), req); !errors.As(err, &bad) || !strings.HasPrefix(err.Error(), "--github-api-url: ") {
		t.Errorf("a bad --github-api-url: %v", err)
	}
}
