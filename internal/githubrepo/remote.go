package githubrepo

import (
	"fmt"
	"net/url"
	"strings"
)

// Repo names a repository on a GitHub server.
type Repo struct {
	Owner string
	Name  string
}

func (r Repo) String() string { return r.Owner + "/" + r.Name }

// IsZero says whether no repository is named.
func (r Repo) IsZero() bool { return r.Owner == "" && r.Name == "" }

// ParseRepo reads OWNER/NAME as --github-repo and bernstein.githubRepo give it.
func ParseRepo(s string) (Repo, error) {
	owner, name, ok := strings.Cut(strings.TrimSpace(s), "/")
	name = strings.TrimSuffix(name, ".git")
	if !ok || !validPart(owner) || !validPart(name) {
		return Repo{}, fmt.Errorf("repository %q is not OWNER/NAME (e.g. acme/app)", s)
	}
	return Repo{Owner: owner, Name: name}, nil
}

// validPart accepts GitHub's owner and repository characters. Anything else (a slash, "..", a space) would
// change the API path we build, so it is refused rather than escaped into a request for something else.
func validPart(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// Remote is a repository named by a git remote URL, and the host that serves it.
type Remote struct {
	Host string // lower case, without port or user
	Repo Repo
}

// OnGitHubCom says whether the remote is on github.com itself, whose API is the public one.
func (r Remote) OnGitHubCom() bool { return r.Host == "github.com" || r.Host == "www.github.com" }

// ParseRemoteURL reads the forms git accepts for a GitHub (or GitHub Enterprise) remote:
// https://host/o/r(.git), ssh://[user@]host[:port]/o/r(.git), git://host/o/r, and scp-like [user@]host:o/r(.git).
// Credentials in the URL are dropped, never kept.
func ParseRemoteURL(raw string) (Remote, error) {
	s := strings.TrimSpace(raw)
	var host, path string
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			return Remote{}, fmt.Errorf("remote URL %q: %w", RedactURL(raw), err)
		}
		switch u.Scheme {
		case "https", "http", "ssh", "git", "git+ssh", "ssh+git":
		default:
			return Remote{}, fmt.Errorf("remote URL %q: scheme %q is not one GitHub serves", RedactURL(raw), u.Scheme)
		}
		host, path = u.Hostname(), u.Path
	} else {
		// scp-like syntax: git treats it so only when a colon comes before any slash.
		colon := strings.Index(s, ":")
		slash := strings.Index(s, "/")
		if colon < 0 || (slash >= 0 && slash < colon) {
			return Remote{}, fmt.Errorf("remote URL %q is a local path, not a GitHub repository", RedactURL(raw))
		}
		at := strings.LastIndex(s[:colon], "@")
		host, path = s[at+1:colon], s[colon+1:]
	}
	host = strings.ToLower(host)
	if host == "" {
		return Remote{}, fmt.Errorf("remote URL %q names no host", RedactURL(raw))
	}
	path = strings.Trim(path, "/")
	parts := strings.Split(path, "/")
	if len(parts) != 2 {
		return Remote{}, fmt.Errorf("remote URL %q: path %q is not OWNER/NAME", RedactURL(raw), path)
	}
	repo, err := ParseRepo(parts[0] + "/" + parts[1])
	if err != nil {
		return Remote{}, fmt.Errorf("remote URL %q: %w", RedactURL(raw), err)
	}
	return Remote{Host: host, Repo: repo}, nil
}

// redactURL hides a password or token written into a remote URL (https://x-access-token:TOKEN@github.com/…),
// so an error message never repeats it.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		if i := strings.Index(raw, "://"); i >= 0 {
			if at := strings.LastIndex(raw, "@"); at > i {
				return raw[:i+3] + "REDACTED" + raw[at:]
			}
		}
		return raw
	}
	u.User = url.User("REDACTED")
	return u.String()
}
