package github

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/githubrepo"
)

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
	ghe := Settings{Source: githubrepo.Source{Remote: "origin", RemoteURL: "https://git.example.com/acme/app.git"}}
	if c, unavailable, err := ghe.Client(time.Second); c != nil || err != nil || unavailable == nil ||
		!strings.Contains(unavailable.Error(), "https://git.example.com/api/v3") {
		t.Errorf("a remote on another host: %v %v %v, want a reason naming its API URL", c, unavailable, err)
	}
	ok := Settings{Source: githubrepo.Source{Repo: "acme/app", RepoFrom: "--github-repo"}, UserAgent: "test",
		CacheDir: t.TempDir()}
	if c, unavailable, err := ok.Client(time.Second); c == nil || unavailable != nil || err != nil {
		t.Errorf("a named repository: %v %v %v, want a client", c, unavailable, err)
	}
}
