package github

import (
	"fmt"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/githubrepo"
)

// Settings are what choose the repository (githubrepo.Source) and the server to ask, as the flags and git's
// configuration give them (package settings reads them): the API URL and where it came from
// ("--github-api-url", "GITHUB_API_URL", "git config bernstein.githubApiUrl"; "" the default), the token, the
// User-Agent and the cache folder. Choose, from the Source, picks the repository.
type Settings struct {
	githubrepo.Source
	APIURL, APIURLFrom string
	Token              string
	UserAgent          string
	CacheDir           string
}

// Client makes the client for the repository Choose picks, each request bounded by timeout. A repository that
// cannot be named is not an error but the reason (unavailable) the bundle reports as a warning; a malformed
// flag or setting is an error (FlagError for a flag's).
func (s Settings) Client(timeout time.Duration) (client *Client, unavailable error, err error) {
	if _, err := ParseAPIURL(s.APIURL); err != nil {
		if s.APIURLFrom == "--github-api-url" {
			return nil, nil, &FlagError{Msg: "--github-api-url: " + err.Error()}
		}
		return nil, nil, fmt.Errorf("%s: %w", s.APIURLFrom, err)
	}
	choice, err := s.Choose()
	if err != nil || choice.Unavailable != nil {
		return nil, choice.Unavailable, err
	}
	if s.APIURL == "" && choice.Remote != nil && !choice.Remote.OnGitHubCom() {
		// The public API would answer for a different repository of the same name, with our token: ask instead.
		host := choice.Remote.Host
		return nil, fmt.Errorf("the remote's host %s is not github.com: for GitHub Enterprise give --github-api-url "+
			"https://%s/api/v3 (or set GITHUB_API_URL or git config bernstein.githubApiUrl), or pass --no-pr", host, host), nil
	}
	client, err = NewClient(choice.Repo, Config{APIURL: s.APIURL, Token: s.Token, Timeout: timeout,
		UserAgent: s.UserAgent, CacheDir: s.CacheDir})
	if err != nil {
		return nil, nil, err
	}
	return client, nil, nil
}
