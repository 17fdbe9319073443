package github

import "github.com/git-bernstein/git-bernstein/internal/githubrepo"

// Repository names and their choice live in package githubrepo, which links no HTTP client (the `commits`
// front uses it); these keep this package's names for them.
type (
	Repo      = githubrepo.Repo
	Remote    = githubrepo.Remote
	Choice    = githubrepo.Choice
	FlagError = githubrepo.FlagError
)

// ErrNoRemote says the repository has no remote to take the GitHub repository from. Fetch stays quiet about it
// unless pull requests are named.
var ErrNoRemote = githubrepo.ErrNoRemote

// ParseRepo reads OWNER/NAME as --github-repo and bernstein.githubRepo give it.
func ParseRepo(s string) (Repo, error) { return githubrepo.ParseRepo(s) }

// ParseRemoteURL reads the forms git accepts for a GitHub (or GitHub Enterprise) remote's URL.
func ParseRemoteURL(raw string) (Remote, error) { return githubrepo.ParseRemoteURL(raw) }

// redactURL hides a password or token written into a URL, so that no message repeats it.
func redactURL(raw string) string { return githubrepo.RedactURL(raw) }
