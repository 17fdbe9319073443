package github

import "github.com/git-bernstein/git-bernstein/internal/githubrepo"

// Repository names and their choice live in package githubrepo, which links no HTTP client (the `commits`
// front uses it); these keep this package's names for the ones its callers use.
type (
	Repo      = githubrepo.Repo
	FlagError = githubrepo.FlagError
)

// ErrNoRemote says the repository has no remote to take the GitHub repository from. Fetch stays quiet about it
// unless pull requests are named.
var ErrNoRemote = githubrepo.ErrNoRemote

// redactURL hides a password or token written into a URL, so that no message repeats it.
func redactURL(raw string) string { return githubrepo.RedactURL(raw) }
