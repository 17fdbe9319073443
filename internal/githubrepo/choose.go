package githubrepo

import (
	"errors"
	"fmt"
)

// Source is what names the repository, as the flags and git's configuration give it (package settings reads
// them): the repository and where it came from ("--github-repo" or "git config bernstein.githubRepo"; "": the
// remote's URL), the remote (RemoteChosen: bernstein.remote named it) and its URL ("" when it has none).
type Source struct {
	Repo, RepoFrom string
	Remote         string
	RemoteChosen   bool
	RemoteURL      string
}

// ErrNoRemote says the repository has no remote to take the GitHub repository from. A bundle stays quiet about
// it unless pull requests are named.
var ErrNoRemote = errors.New("no GitHub repository known")

// FlagError is a flag's value that is not usable (--github-repo, --github-api-url): exit 2 in the CLI.
type FlagError struct{ Msg string }

func (e *FlagError) Error() string { return e.Msg }

// Choice is the repository to ask about, with the remote it came from (nil when named by flag or config), or
// why there is none (Unavailable: not an error, a reason the bundle reports as a warning).
type Choice struct {
	Repo        Repo
	Remote      *Remote
	Unavailable error
}

// Choose is --github-repo, else bernstein.githubRepo, else the repository the remote's URL names.
func (s Source) Choose() (Choice, error) {
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
		// A missing default remote is ErrNoRemote, which a bundle is quiet about unless pull requests are
		// named; a remote the user chose that does not exist is always said.
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
