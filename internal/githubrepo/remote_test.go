package githubrepo

import (
	"strings"
	"testing"
)

func TestParseRemoteURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		url, host, repo string // repo "" means an error is expected
	}{
		{"https://github.com/acme/app", "github.com", "acme/app"},
		{"https://github.com/acme/app.git", "github.com", "acme/app"},
		{"https://github.com/acme/app/", "github.com", "acme/app"},
		{"https://x-access-token:s3cret@github.com/acme/app.git", "github.com", "acme/app"},
		{"http://GitHub.com/Acme/App.git", "github.com", "Acme/App"},
		{"git@github.com:acme/app.git", "github.com", "acme/app"},
		{"git@github.com:acme/app", "github.com", "acme/app"},
		{"github.com:acme/app.git", "github.com", "acme/app"},
		{"ssh://git@github.com/acme/app.git", "github.com", "acme/app"},
		{"ssh://git@ghe.example.com:2222/acme/app.git", "ghe.example.com", "acme/app"},
		{"git+ssh://git@github.com/acme/my.app.git", "github.com", "acme/my.app"},
		{"git://github.com/acme/app.git", "github.com", "acme/app"},
		{"https://ghe.example.com/acme/app.git", "ghe.example.com", "acme/app"},
		{"git@ghe.example.com:acme/app.git", "ghe.example.com", "acme/app"},
		{"/srv/git/app.git", "", ""},
		{"../app", "", ""},
		{"file:///srv/git/acme/app.git", "", ""},
		{"https://github.com/acme", "", ""},
		{"https://github.com/acme/app/tree/main", "", ""},
		{"git@github.com:acme/../app.git", "", ""},
		{"https://github.com/acme/a%20b.git", "", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		got, err := ParseRemoteURL(c.url)
		if c.repo == "" {
			if err == nil {
				t.Errorf("ParseRemoteURL(%q) = %+v, want an error", c.url, got)
			}
			continue
		}
		if err != nil || got.Host != c.host || got.Repo.String() != c.repo {
			t.Errorf("ParseRemoteURL(%q) = %+v, %v; want %s %s", c.url, got, err, c.host, c.repo)
		}
	}
}

func TestParseRemoteURLHidesCredentials(t *testing.T) {
	t.Parallel()
	_, err := ParseRemoteURL("https://x-access-token:s3cret@github.com/acme")
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("error %v should exist and not repeat the password", err)
	}
}

func TestParseRepo(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"acme/app": "acme/app", " acme/app.git ": "acme/app", "a-b/c_d.e": "a-b/c_d.e",
		"acme": "", "acme/app/x": "", "/app": "", "acme/": "", "../x": "", "acme/..": "", "a b/c": ""} {
		got, err := ParseRepo(in)
		if want == "" {
			if err == nil {
				t.Errorf("ParseRepo(%q) = %v, want an error", in, got)
			}
		} else if err != nil || got.String() != want {
			t.Errorf("ParseRepo(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
}
