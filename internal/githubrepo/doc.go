// Package githubrepo names the GitHub repository a run is about: OWNER/NAME as --github-repo and
// bernstein.githubRepo give it, or the repository a git remote's URL names (every form git accepts for one),
// and which of them wins (Source.Choose). It makes no request and links no HTTP client, so that the `commits`
// front (package front) can tell which repository `#123` means without the GitHub client's start-up cost;
// package github asks the API.
//
// Names are checked, never escaped: an owner or name with a character GitHub does not allow (a slash, "..", a
// space) is refused, since it would change the API path built from it. Credentials written into a remote URL
// are dropped, and RedactURL hides them in every message.
package githubrepo
