package github

import (
	"fmt"
	"time"
)

// Settings are what choose the repository and the server to ask, as the flags and git's configuration give
// them (package settings reads them): the API URL and where it came from ("--github-api-url", "GITHUB_API_URL",
// "git config bernstein.githubApiUrl"; "" the default), the repository and where it came from ("--github-repo"
// or "git config bernstein.githubRepo"; "": the remote's URL), the remote (RemoteChosen: bernstein.remote
// named it) and its URL ("" when it has none), the token, the User-Agent and the cache folder.
type Settings struct {
	APIURL, APIURLFrom string
	Repo, RepoFrom     string
	Remote             string
	RemoteChosen       bool
	RemoteURL          string
	Token              string
	UserAgent          string
	CacheDir           string
}

// FlagError is a flag's value that is not usable (--github-repo, --github-api-url): exit 2 in the CLI.
type FlagError struct{ msg string }

func (e *FlagError) Error() string { return e.msg }

// Choice is the repository to ask about, with the remote it came from (nil when named by flag or config), or
// why there is none (Unavailable: not an error, a reason the bundle reports as a warning).
type Choice struct {
	Repo        Repo
	Remote      *Remote
	Unavailable error
}

// Choose is --github-repo, else bernstein.githubRepo, else the repository the remote's URL names.
func (s Settings) Choose() (Choice, error) {
	switch s.RepoFrom {
	case "--github-repo":
		repo, err := ParseRepo(s.Repo)
		if err != nil {
			return Choice{}, &FlagError{"--github-repo: " + err.Error()}
		}
		return Choice{Repo: repo}, nil
	case "":
	default:
		repo, err := ParseRepo(s.Repo)
		if err != nil {
			return Choice{}, fmt.Errorf("%s: %w", s.RepoFrom, err)
		}
		return Choice{Repo: repo}, nil
	}
	if s.RemoteURL == "" {
		why := fmt.Sprintf("there is no remote %q; give --github-repo OWNER/NAME (or git config "+
			"bernstein.githubRepo), or pass --no-pr", s.Remote)
		// A missing default remote is ErrNoRemote, which Fetch is quiet about unless pull requests are named;
		// a remote the user chose that does not exist is always said.
		if !s.RemoteChosen {
			return Choice{Unavailable: fmt.Errorf("%w: %s", ErrNoRemote, why)}, nil
		}
		return Choice{Unavailable: fmt.Errorf("%s: %s", ErrNoRemote.Error(), why)}, nil
	}
	remote, err := ParseRemoteURL(s.RemoteURL)
	if err != nil {
		return Choice{Unavailable: fmt.Errorf("remote %s does not name a GitHub repository (%v); give --github-repo "+
			"OWNER/NAME (or git config bernstein.githubRepo), or pass --no-pr", s.Remote, err)}, nil
	}
	return Choice{Repo: remote.Repo, Remote: &remote}, nil
}

// Client makes the client for the repository Choose picks, each request bounded by timeout. A repository that
// cannot be named is not an error but the reason (unavailable) the bundle reports as a warning; a malformed
// flag or setting is an error (FlagError for a flag's).
func (s Settings) Client(timeout time.Duration) (client *Client, unavailable error, err error) {
	if _, err := ParseAPIURL(s.APIURL); err != nil {
		if s.APIURLFrom == "--github-api-url" {
			return nil, nil, &FlagError{"--github-api-url: " + err.Error()}
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
