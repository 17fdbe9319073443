package github

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Choose takes --github-repo, then bernstein.githubRepo, then the remote's URL; a bad flag is a FlagError, a
// bad setting an error naming it, and a remote that names no repository a reason, not an error.
func TestSettingsChoose(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		s           Settings
		repo        string
		remote      bool
		flagErr     bool
		errPrefix   string
		unavailable string
	}{
		{name: "flag", s: Settings{Repo: "acme/app", RepoFrom: "--github-repo", RemoteURL: "git@github.com:x/y.git"}, repo: "acme/app"},
		{name: "config", s: Settings{Repo: "acme/lib", RepoFrom: "git config bernstein.githubRepo"}, repo: "acme/lib"},
		{name: "remote", s: Settings{Remote: "origin", RemoteURL: "https://github.com/acme/web.git"}, repo: "acme/web", remote: true},
		{name: "bad flag", s: Settings{Repo: "acme", RepoFrom: "--github-repo"}, flagErr: true, errPrefix: "--github-repo: "},
		{name: "bad config", s: Settings{Repo: "acme", RepoFrom: "git config bernstein.githubRepo"}, errPrefix: "git config bernstein.githubRepo: "},
		{name: "no remote", s: Settings{Remote: "origin"}, unavailable: `there is no remote "origin"`},
		{name: "chosen remote missing", s: Settings{Remote: "up", RemoteChosen: true}, unavailable: `no GitHub repository known: there is no remote "up"`},
		{name: "not github", s: Settings{Remote: "origin", RemoteURL: "/srv/git/app.git"}, unavailable: "remote origin does not name a GitHub repository"},
	} {
		c, err := tc.s.Choose()
		var bad *FlagError
		switch {
		case tc.errPrefix != "":
			if err == nil || !strings.HasPrefix(err.Error(), tc.errPrefix) || errors.As(err, &bad) != tc.flagErr {
				t.Errorf("%s: %v, want an error starting %q (a FlagError: %v)", tc.name, err, tc.errPrefix, tc.flagErr)
			}
		case tc.unavailable != "":
			if err != nil || c.Unavailable == nil || !strings.Contains(c.Unavailable.Error(), tc.unavailable) {
				t.Errorf("%s: %+v %v, want unavailable saying %q", tc.name, c, err, tc.unavailable)
			}
		default:
			if err != nil || c.Repo.String() != tc.repo || (c.Remote != nil) != tc.remote {
				t.Errorf("%s: %+v %v, want %s", tc.name, c, err, tc.repo)
			}
		}
	}
}

// Client refuses a bad API URL (a FlagError when it is the flag's) and a remote on another host without an API
// URL (the public API would answer for someone else's repository), and makes one otherwise.
func TestSettingsClient(t *testing.T) {
	t.Parallel()
	var bad *FlagError
	if _, _, err := (Settings{APIURL: "ftp://x", APIURLFrom: "--github-api-url"}).Client(time.Second); !errors.As(err, &bad) {
		t.Errorf("a bad --github-api-url: %v, want a FlagError", err)
	}
	if _, _, err := (Settings{APIURL: "ftp://x", APIURLFrom: "GITHUB_API_URL"}).Client(time.Second); err == nil ||
		errors.As(err, &bad) || !strings.HasPrefix(err.Error(), "GITHUB_API_URL: ") {
		t.Errorf("a bad GITHUB_API_URL: %v, want an error naming it", err)
	}
	ghe := Settings{Remote: "origin", RemoteURL: "https://git.example.com/acme/app.git"}
	if c, unavailable, err := ghe.Client(time.Second); c != nil || err != nil || unavailable == nil ||
		!strings.Contains(unavailable.Error(), "https://git.example.com/api/v3") {
		t.Errorf("a remote on another host: %v %v %v, want a reason naming its API URL", c, unavailable, err)
	}
	ok := Settings{Repo: "acme/app", RepoFrom: "--github-repo", UserAgent: "test", CacheDir: t.TempDir()}
	if c, unavailable, err := ok.Client(time.Second); c == nil || unavailable != nil || err != nil {
		t.Errorf("a named repository: %v %v %v, want a client", c, unavailable, err)
	}
}
