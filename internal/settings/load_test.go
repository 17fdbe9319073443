package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// config is git's configuration as a map: each key's values in order.
type config map[string][]string

func (c config) Get(key string) (string, bool) {
	v := c[key]
	if len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

func (c config) GetAll(key string) []string { return c[key] }

func (c config) Bool(key string, def bool) (bool, error) {
	v, ok := c.Get(key)
	switch {
	case !ok:
		return def, nil
	case v == "true":
		return true, nil
	case v == "false":
		return false, nil
	}
	return def, fmt.Errorf("bad boolean config value %q for %q", v, key)
}

func ptr[T any](v T) *T { return &v }

// TestLoadPrecedence: each setting from the flag, else the environment, else git's configuration, else
// bernstein.yaml, else its default, as the package doc lists them.
func TestLoadPrecedence(t *testing.T) {
	t.Parallel()
	src := Sources{WorkTree: "/top", CommonDir: "/top/.git"}
	cases := []struct {
		name  string
		cfg   config
		env   map[string]string
		flags Flags
		get   func(*Settings) any
		want  any
	}{
		{"tracker default", nil, nil, Flags{}, func(s *Settings) any { return []any{s.Tracker, s.TrackerDefaulted} }, []any{"github", true}},
		{"tracker config", config{"bernstein.tracker": {"jira"}}, nil, Flags{}, func(s *Settings) any { return []any{s.Tracker, s.TrackerDefaulted} }, []any{"jira", false}},
		{"tracker flag", config{"bernstein.tracker": {"jira"}}, nil, Flags{Tracker: ptr("linear")}, func(s *Settings) any { return s.Tracker }, "linear"},
		{"tracker empty flag", config{"bernstein.tracker": {"jira"}}, nil, Flags{Tracker: ptr("")}, func(s *Settings) any { return s.Tracker }, ""},
		{"tracker empty config", config{"bernstein.tracker": {""}}, nil, Flags{}, func(s *Settings) any { return []any{s.Tracker, s.TrackerDefaulted} }, []any{"github", true}},
		{"match default", nil, nil, Flags{}, func(s *Settings) any { return s.Match }, "trailer,branch,merge,message"},
		{"match config", config{"bernstein.match": {"trailer"}}, nil, Flags{}, func(s *Settings) any { return s.Match }, "trailer"},
		{"match flag", config{"bernstein.match": {"trailer"}}, nil, Flags{Match: ptr("branch")}, func(s *Settings) any { return s.Match }, "branch"},
		{"trailers add up", config{"bernstein.trailer": {"Task", "Story"}}, nil, Flags{Trailers: []string{"Bug"}}, func(s *Settings) any { return s.Trailers }, []string{"Task", "Story", "Bug"}},
		{"index default", nil, nil, Flags{}, func(s *Settings) any { return s.Index }, true},
		{"index config", config{"bernstein.index": {"false"}}, nil, Flags{}, func(s *Settings) any { return s.Index }, false},
		{"bundle dir default", nil, nil, Flags{}, func(s *Settings) any { return s.BundleDir }, filepath.FromSlash("/top/.git/bernstein/bundles")},
		{"bundle dir config, relative to the top", config{"bernstein.bundleDir": {"b"}}, nil, Flags{Wd: "/top/sub"}, func(s *Settings) any { return s.BundleDir }, filepath.FromSlash("/top/b")},
		{"bundle dir flag, relative to wd", config{"bernstein.bundleDir": {"b"}}, nil, Flags{BundleDir: "f", Wd: "/top/sub"}, func(s *Settings) any { return s.BundleDir }, filepath.FromSlash("/top/sub/f")},
		// "~/" is the run's HOME (Sources.Getenv), not the process's: tests and callers give their own environment.
		{"bundle dir config under ~", config{"bernstein.bundleDir": {"~/evidence"}}, map[string]string{"HOME": "/home/auditor"}, Flags{Wd: "/top/sub"}, func(s *Settings) any { return s.BundleDir }, filepath.FromSlash("/home/auditor/evidence")},
		{"bundle dir flag under ~", nil, map[string]string{"HOME": "/home/auditor"}, Flags{BundleDir: "~/x", Wd: "/top/sub"}, func(s *Settings) any { return s.BundleDir }, filepath.FromSlash("/home/auditor/x")},
		{"bundle dir under ~ without HOME", config{"bernstein.bundleDir": {"~/evidence"}}, nil, Flags{Wd: "/top/sub"}, func(s *Settings) any { return s.BundleDir }, filepath.FromSlash("/top/~/evidence")},
		{"max tickets default", nil, nil, Flags{}, func(s *Settings) any { return s.MaxTickets }, DefaultMaxTickets},
		{"max tickets config", config{"bernstein.maxTickets": {"7"}}, nil, Flags{}, func(s *Settings) any { return s.MaxTickets }, 7},
		{"max tickets flag", config{"bernstein.maxTickets": {"7"}}, nil, Flags{MaxTickets: ptr(0)}, func(s *Settings) any { return s.MaxTickets }, 0},
		{"hook budget default", nil, nil, Flags{}, func(s *Settings) any { return s.HookBudget }, 5 * time.Second},
		{"hook budget seconds", config{"bernstein.hookBudget": {"9"}}, nil, Flags{}, func(s *Settings) any { return s.HookBudget }, 9 * time.Second},
		{"hook budget duration", config{"bernstein.hookBudget": {"1m"}}, nil, Flags{}, func(s *Settings) any { return s.HookBudget }, time.Minute},
		{"controls flag", config{"bernstein.controls": {"true"}}, nil, Flags{Controls: ptr(false)}, func(s *Settings) any { return s.Controls }, false},
		{"attest config", config{"bernstein.attest": {"true"}}, nil, Flags{}, func(s *Settings) any { return s.Attest }, true},
		{"github repo config", config{"bernstein.githubRepo": {"a/b"}}, nil, Flags{}, func(s *Settings) any { return []any{s.GithubRepo, s.GithubRepoFrom} }, []any{"a/b", "git config bernstein.githubRepo"}},
		{"github repo flag", config{"bernstein.githubRepo": {"a/b"}}, nil, Flags{GithubRepo: ptr("c/d")}, func(s *Settings) any { return []any{s.GithubRepo, s.GithubRepoFrom} }, []any{"c/d", "--github-repo"}},
		{"remote default", nil, nil, Flags{}, func(s *Settings) any { return []any{s.Remote, s.RemoteChosen} }, []any{"origin", false}},
		{"remote config", config{"bernstein.remote": {"up"}}, nil, Flags{}, func(s *Settings) any { return []any{s.Remote, s.RemoteChosen} }, []any{"up", true}},
		{"api url config", config{"bernstein.githubApiUrl": {"https://c/"}}, nil, Flags{}, func(s *Settings) any { return s.GithubAPIURL }, "https://c/"},
		{"api url env over config", config{"bernstein.githubApiUrl": {"https://c/"}}, map[string]string{"GITHUB_API_URL": "https://e/"}, Flags{}, func(s *Settings) any { return []any{s.GithubAPIURL, s.GithubAPIURLFrom} }, []any{"https://e/", "GITHUB_API_URL"}},
		{"api url flag over env", nil, map[string]string{"GITHUB_API_URL": "https://e/"}, Flags{GithubAPIURL: ptr("https://f/")}, func(s *Settings) any { return s.GithubAPIURLFrom }, "--github-api-url"},
		{"stores in order", config{"bernstein.store": {"oci://a/b", "oci://c/d"}}, nil, Flags{}, func(s *Settings) any { return s.Stores }, []string{"oci://a/b", "oci://c/d"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := src
			if tc.cfg != nil {
				src.Config = tc.cfg
			}
			src.Getenv = func(k string) string { return tc.env[k] }
			s := Load(src, tc.flags)
			if got := tc.get(s); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			for key, err := range s.invalid {
				t.Errorf("%s: %v", key, err)
			}
		})
	}
}

// TestLoadInvalid: a value that cannot be read is an error for its key alone, and the default stands.
func TestLoadInvalid(t *testing.T) {
	t.Parallel()
	cfg := config{"bernstein.maxTickets": {"many"}, "bernstein.hookBudget": {"soon"}, "bernstein.index": {"maybe"},
		"bernstein.controls": {"x"}, "bernstein.attest": {"y"}}
	s := Load(Sources{Config: cfg}, Flags{})
	for _, key := range []string{"bernstein.maxTickets", "bernstein.hookBudget", "bernstein.index", "bernstein.controls", "bernstein.attest"} {
		if s.Err(key) == nil {
			t.Errorf("%s: no error", key)
		} else if !strings.Contains(s.Err(key).Error(), key) {
			t.Errorf("%s: the error does not name the key: %v", key, s.Err(key))
		}
	}
	if s.HookBudget != DefaultHookBudget || !s.Index || s.Err("bernstein.tracker") != nil {
		t.Errorf("defaults not kept: %+v", s)
	}
	// A flag wins without the configured value being read.
	if s := Load(Sources{Config: cfg}, Flags{Attest: ptr(true)}); s.Err("bernstein.attest") != nil || !s.Attest {
		t.Errorf("--attest: %v %v", s.Attest, s.Err("bernstein.attest"))
	}
}

// TestDocListsEveryKey: the package doc's precedence table, or its list of keys read elsewhere, names every
// key of Keys, and Load's defaults are the ones README's table (Keys) gives.
func TestDocListsEveryKey(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys {
		if !strings.Contains(string(doc), k.Name) {
			t.Errorf("doc.go does not say how %s is read", k.Name)
		}
	}
	defaults := map[string]string{
		"bernstein.tracker":      DefaultTracker,
		"bernstein.match":        DefaultMatch,
		"bernstein.maxTickets":   fmt.Sprint(DefaultMaxTickets),
		"bernstein.hookBudget":   DefaultHookBudget.String(),
		"bernstein.index":        fmt.Sprint(Load(Sources{}, Flags{}).Index),
		"bernstein.controls":     fmt.Sprint(Load(Sources{}, Flags{}).Controls),
		"bernstein.attest":       fmt.Sprint(Load(Sources{}, Flags{}).Attest),
		"bernstein.pullRequests": fmt.Sprint(!Load(Sources{}, Flags{}).NoPR),
		"bernstein.legalHold":    fmt.Sprint(Load(Sources{}, Flags{}).LegalHold),
	}
	for name, def := range defaults {
		k, ok := Lookup(name)
		if !ok || k.Default != "`"+def+"`" {
			t.Errorf("%s: Load's default %q, README's (Keys) %q", name, def, k.Default)
		}
	}
}

// GithubSource names the repository by flag, else bernstein.githubRepo, else by the URL of the remote the
// settings chose (bernstein.remote, else origin); a remote that does not exist has no URL.
func TestGithubSource(t *testing.T) {
	t.Parallel()
	cfg := config{"remote.origin.url": {"git@github.com:acme/app.git"}, "remote.up.url": {"https://github.com/acme/up"}}
	for _, tc := range []struct {
		name string
		cfg  config
		f    Flags
		want string // Repo + " " + RepoFrom + " " + Remote + " " + RemoteURL
	}{
		{"origin", cfg, Flags{}, "  origin git@github.com:acme/app.git"},
		{"chosen remote", config{"bernstein.remote": {"up"}, "remote.up.url": cfg["remote.up.url"]}, Flags{},
			"  up https://github.com/acme/up"},
		{"no such remote", config{"bernstein.remote": {"gone"}}, Flags{}, "  gone "},
		{"flag", cfg, Flags{GithubRepo: ptr("acme/lib")}, "acme/lib --github-repo origin git@github.com:acme/app.git"},
	} {
		s := Load(Sources{Config: tc.cfg}, tc.f).GithubSource()
		if got := s.Repo + " " + s.RepoFrom + " " + s.Remote + " " + s.RemoteURL; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
