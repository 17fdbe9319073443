package githubrepo

import (
	"errors"
	"strings"
	"testing"
)

// Choose takes --github-repo, then bernstein.githubRepo, then the remote's URL; a bad flag is a FlagError, a
// bad setting an error naming it, and a remote that names no repository a reason, not an error.
func TestSourceChoose(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		s           Source
		repo        string
		remote      bool
		flagErr     bool
		errPrefix   string
		unavailable string
	}{
		{name: "flag", s: Source{Repo: "acme/app", RepoFrom: "--github-repo", RemoteURL: "git@github.com:x/y.git"}, repo: "acme/app"},
		{name: "config", s: Source{Repo: "acme/lib", RepoFrom: "git config bernstein.githubRepo"}, repo: "acme/lib"},
		{name: "remote", s: Source{Remote: "origin", RemoteURL: "https://github.com/acme/web.git"}, repo: "acme/web", remote: true},
		{name: "bad flag", s: Source{Repo: "acme", RepoFrom: "--github-repo"}, flagErr: true, errPrefix: "--github-repo: "},
		{name: "bad config", s: Source{Repo: "acme", RepoFrom: "git config bernstein.githubRepo"}, errPrefix: "git config bernstein.githubRepo: "},
		{name: "no remote", s: Source{Remote: "origin"}, unavailable: `there is no remote "origin"`},
		{name: "chosen remote missing", s: Source{Remote: "up", RemoteChosen: true}, unavailable: `no GitHub repository known: there is no remote "up"`},
		{name: "not github", s: Source{Remote: "origin", RemoteURL: "/srv/git/app.git"}, unavailable: "remote origin does not name a GitHub repository"},
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
