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
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

func captureRequest(t *testing.T, client func(time.Duration) (*github.Client, error, error)) Request {
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
	return Request{Ticket: tk, Commits: &discover.Commits{}, SDD: t.TempDir(), Repo: repo, Client: client,
		Timeout: 5 * time.Second, Now: time.Now}
}

// Capture asks the fake GitHub for --pr 17 with the timeout asked for and packs its payload and reviews.
func TestCaptureFetches(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	var asked time.Duration
	req := captureRequest(t, func(timeout time.Duration) (*github.Client, error, error) {
		asked = timeout
		c, err := github.NewClient(github.Repo{Owner: "acme", Name: "app"}, github.Config{APIURL: srv.APIURL(),
			Timeout: timeout, RetryDelay: -1, UserAgent: "test", CacheDir: t.TempDir()})
		return c, nil, err
	})
	req.Numbers, req.RequirePR = []int{17}, true
	set, err := Capture(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if asked != 5*time.Second || len(set.PRs) != 1 || set.PRs[0].Number != 17 || len(set.PRs[0].Payload) == 0 ||
		set.PRs[0].Reviews == nil {
		t.Errorf("timeout %v; captured %+v", asked, set.PRs)
	}
}

// Under the hook's budget: no time left is a warning and Stopped, GitHub not asked; some time left is half of
// it as the timeout. --require-pr fails a ticket with no pull request, saying why; a client error is the error.
func TestCaptureBudgetAndRequirePR(t *testing.T) {
	t.Parallel()
	calls, stops := 0, 0
	var asked time.Duration
	unavailable := errors.New("no GitHub repository known: give --github-repo")
	req := captureRequest(t, func(timeout time.Duration) (*github.Client, error, error) {
		calls++
		asked = timeout
		return nil, unavailable, nil
	})
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	req.Now, req.Stopped = func() time.Time { return now }, func() { stops++ }
	req.Deadline = now.Add(300 * time.Millisecond)
	set, err := Capture(context.Background(), req)
	if err != nil || calls != 0 || stops != 1 || len(set.Warnings) != 1 ||
		!strings.Contains(set.Warnings[0], "not asked, the time budget (bernstein.hookBudget) is used up") {
		t.Errorf("no time left: %+v %v; %d client calls, %d stops", set, err, calls, stops)
	}
	req.Deadline = now.Add(3 * time.Second)
	if _, err := Capture(context.Background(), req); err != nil || asked != 1500*time.Millisecond {
		t.Errorf("3 s left: timeout %v (%v), want half of it", asked, err)
	}
	req.Deadline, req.RequirePR = time.Time{}, true
	_, err = Capture(context.Background(), req)
	if err == nil || !strings.HasPrefix(err.Error(), "--require-pr: no pull request of 42 found") {
		t.Errorf("--require-pr with nothing found: %v", err)
	}
	bad := errors.New("--github-api-url: not a URL")
	req.Client = func(time.Duration) (*github.Client, error, error) { return nil, nil, bad }
	if _, err := Capture(context.Background(), req); !errors.Is(err, bad) {
		t.Errorf("a client error: %v", err)
	}
}
