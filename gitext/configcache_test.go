//go:build linux || darwin

package gitext

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// cacheKeeps is the keep of the cache tests: bernstein.* and the remotes' URLs.
func cacheKeeps(k string) bool {
	return strings.HasPrefix(k, "bernstein.") || strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".url")
}

// cacheRepo is a repository with its own system file, ready for cachedOpen.
type cacheRepo struct {
	*gittest.Repo
	env    map[string]string // over r.Env
	system string
}

func newCacheRepo(t *testing.T) *cacheRepo {
	t.Helper()
	r := gittest.New(t)
	r.Commit("init", nil)
	c := &cacheRepo{Repo: r, system: filepath.Join(t.TempDir(), "gitconfig")}
	c.env = map[string]string{"GIT_CONFIG_NOSYSTEM": "", "GIT_CONFIG_SYSTEM": c.system}
	return c
}

func (c *cacheRepo) getenv(k string) string {
	if v, ok := c.env[k]; ok {
		return v
	}
	return c.Getenv(k)
}

// open discovers the repository with the cache (window: racyWindow; negative caches everything) and reads its
// configuration; fromCache says whether the cache answered.
func (c *cacheRepo) open(t *testing.T, window time.Duration) (cfg *Config, fromCache bool) {
	t.Helper()
	repo, err := Discover(c.Dir, c.getenv, WithConfigCache(cacheKeeps))
	if err != nil {
		t.Fatal(err)
	}
	repo.configRacy = window
	cfg, err = repo.Configuration()
	repo.WaitConfigCache()
	if err != nil {
		t.Fatal(err)
	}
	return cfg, cfg.keep != nil
}

// git runs git config with the cache test's environment.
func (c *cacheRepo) git(t *testing.T, args ...string) string {
	t.Helper()
	saved := c.Env
	c.Env = nil
	for _, kv := range saved {
		if k, _, _ := strings.Cut(kv, "="); !hasKey(c.env, k) {
			c.Env = append(c.Env, kv)
		}
	}
	for k, v := range c.env {
		if v != "" { // empty: unset, as configEnv passes it
			c.Env = append(c.Env, k+"="+v)
		}
	}
	defer func() { c.Env = saved }()
	out, _ := c.GitErr(args...)
	return strings.TrimSpace(out)
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConfigCacheFollowsEveryFileGitReads: after a change to any file git config reads, or to what it reads
// from the environment, the next run asks git again and sees the change; until then the cache answers, with
// git's values.
func TestConfigCacheFollowsEveryFileGitReads(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, c *cacheRepo)
	}{
		{"repository file", func(t *testing.T, c *cacheRepo) { c.git(t, "config", "bernstein.tracker", "github") }},
		{"repository file rewritten in place", func(t *testing.T, c *cacheRepo) {
			path := filepath.Join(c.Dir, ".git", "config")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte(strings.Replace(string(data), "tracker = jira", "tracker = gitea", 1)))
			f.Close()
		}},
		{"global file made", func(t *testing.T, c *cacheRepo) {
			writeFile(t, c.getenv("GIT_CONFIG_GLOBAL"), "[bernstein]\n\tmatch = trailer\n")
		}},
		{"XDG file made", func(t *testing.T, c *cacheRepo) {
			writeFile(t, filepath.Join(c.getenv("XDG_CONFIG_HOME"), "git", "config"), "[bernstein]\n\tmatch = branch\n")
		}},
		{"system file made", func(t *testing.T, c *cacheRepo) { writeFile(t, c.system, "[bernstein]\n\tmatch = merge\n") }},
		{"GIT_CONFIG_PARAMETERS", func(t *testing.T, c *cacheRepo) {
			c.env["GIT_CONFIG_PARAMETERS"] = "'bernstein.match'='message'"
		}},
		{"GIT_CONFIG_COUNT", func(t *testing.T, c *cacheRepo) {
			c.env["GIT_CONFIG_COUNT"], c.env["GIT_CONFIG_KEY_0"], c.env["GIT_CONFIG_VALUE_0"] = "1", "bernstein.match", "x"
		}},
		{"worktree file", func(t *testing.T, c *cacheRepo) {
			c.git(t, "config", "extensions.worktreeConfig", "true")
			c.git(t, "config", "--worktree", "bernstein.baseBranch", "trunk")
		}},
		{"global file named /dev/null, then a file", func(t *testing.T, c *cacheRepo) {
			c.env["GIT_CONFIG_GLOBAL"] = filepath.Join(t.TempDir(), "global")
			writeFile(t, c.env["GIT_CONFIG_GLOBAL"], "[bernstein]\n\tmatch = trailer\n")
		}},
		{"remote URL", func(t *testing.T, c *cacheRepo) {
			c.git(t, "remote", "set-url", "origin", "git@github.com:acme/other.git")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCacheRepo(t)
			switch {
			case tc.name == "XDG file made":
				c.env["GIT_CONFIG_GLOBAL"] = ""
			case strings.HasPrefix(tc.name, "global file named /dev/null"): // read as empty, and cached
				c.env["GIT_CONFIG_GLOBAL"] = os.DevNull
			}
			c.git(t, "config", "bernstein.tracker", "jira")
			c.git(t, "remote", "add", "origin", "https://github.com/acme/app.git")
			if _, cached := c.open(t, -time.Hour); cached {
				t.Fatal("the first run read a cache no one wrote")
			}
			cfg, cached := c.open(t, -time.Hour)
			if !cached {
				t.Fatal("the second run asked git again: nothing was cached")
			}
			c.same(t, cfg)
			tc.change(t, c)
			cfg, cached = c.open(t, -time.Hour)
			if cached {
				t.Fatalf("after the change the cache still answered: tracker %v, match %v", cfg.GetAll("bernstein.tracker"),
					cfg.GetAll("bernstein.match"))
			}
			c.same(t, cfg)
			if cfg, cached = c.open(t, -time.Hour); !cached {
				t.Fatal("the changed configuration was not cached")
			}
			c.same(t, cfg)
		})
	}
}

// same checks that cfg holds git's values for the keys the tests change.
func (c *cacheRepo) same(t *testing.T, cfg *Config) {
	t.Helper()
	for _, k := range []string{"bernstein.tracker", "bernstein.match", "bernstein.baseBranch", "remote.origin.url"} {
		want := c.git(t, "config", "--get-all", k)
		if got := strings.Join(cfg.GetAll(k), "\n"); got != want {
			t.Errorf("%s = %q, git config says %q", k, got, want)
		}
	}
	if k := cfg.Unanswered(); k != "" {
		t.Errorf("asked only kept keys, Unanswered says %s", k)
	}
}

// TestConfigCacheRefuses: what an include could pull in, credentials and a file changed within the racy window
// are never cached; git answers every time.
func TestConfigCacheRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		window time.Duration
		set    func(t *testing.T, c *cacheRepo)
	}{
		{"include in the repository file", -time.Hour, func(t *testing.T, c *cacheRepo) {
			c.git(t, "config", "include.path", "more.cfg")
		}},
		{"includeIf in the global file", -time.Hour, func(t *testing.T, c *cacheRepo) {
			writeFile(t, c.getenv("GIT_CONFIG_GLOBAL"), "[includeIf \"onbranch:main\"]\n\tpath = x\n")
		}},
		{"include in the system file", -time.Hour, func(t *testing.T, c *cacheRepo) {
			writeFile(t, c.system, "[Include]\n\tpath = x\n")
		}},
		{"include given with git -c", -time.Hour, func(t *testing.T, c *cacheRepo) {
			c.env["GIT_CONFIG_PARAMETERS"] = "'include.path'='/tmp/x'"
		}},
		{"token in a remote URL", -time.Hour, func(t *testing.T, c *cacheRepo) {
			c.git(t, "remote", "add", "origin", "https://x-access-token:ghp_secret@github.com/acme/app.git")
		}},
		{"password in another kept URL", -time.Hour, func(t *testing.T, c *cacheRepo) {
			c.git(t, "config", "bernstein.store", "https://ci:hunter2@store.example/evidence")
		}},
		{"token as the user of a remote URL", -time.Hour, func(t *testing.T, c *cacheRepo) {
			c.git(t, "remote", "add", "origin", "https://ghp_secret@github.com/acme/app.git")
		}},
		{"cache folder cannot be made", -time.Hour, func(t *testing.T, c *cacheRepo) {
			writeFile(t, filepath.Join(c.Dir, ".git", "bernstein"), "a file where the folder would be\n")
		}},
		{"file changed within the racy window", configRacyWindow, func(t *testing.T, c *cacheRepo) {
			c.git(t, "config", "bernstein.tracker", "jira")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCacheRepo(t)
			tc.set(t, c)
			for range 2 {
				if cfg, cached := c.open(t, tc.window); cached {
					t.Fatalf("cached: %v", cfg.values)
				}
			}
			path := filepath.Join(c.Dir, ".git", "bernstein", "config-cache")
			if data, err := os.ReadFile(path); err == nil {
				t.Errorf("a cache was written:\n%s", data)
			}
		})
	}
}

// TestConfigCacheHostileFile: a cache file that is not whole, not ours or not a regular file is not read; git
// answers and the cache is written anew.
func TestConfigCacheHostileFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, path string, good []byte)
	}{
		{"garbage", func(t *testing.T, path string, good []byte) { writeFile(t, path, "bernstein\x00\n") }},
		{"truncated", func(t *testing.T, path string, good []byte) { writeFile(t, path, string(good[:len(good)-1])) }},
		{"value changed", func(t *testing.T, path string, good []byte) {
			writeFile(t, path, strings.Replace(string(good), "jira", "gh00", 1))
		}},
		{"empty", func(t *testing.T, path string, good []byte) { writeFile(t, path, "") }},
		{"too large", func(t *testing.T, path string, good []byte) {
			writeFile(t, path, string(good)+strings.Repeat("x", maxConfigCache))
		}},
		{"symlink to a whole cache", func(t *testing.T, path string, good []byte) {
			other := filepath.Join(t.TempDir(), "cache")
			writeFile(t, other, string(good))
			os.Remove(path)
			if err := os.Symlink(other, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"FIFO", func(t *testing.T, path string, good []byte) {
			os.Remove(path)
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCacheRepo(t)
			c.git(t, "config", "bernstein.tracker", "jira")
			c.open(t, -time.Hour)
			path := filepath.Join(c.Dir, ".git", "bernstein", "config-cache")
			good, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tc.spoil(t, path, good)
			done := make(chan struct{})
			go func() {
				defer close(done)
				cfg, cached := c.open(t, -time.Hour)
				if cached {
					t.Errorf("the spoilt cache answered: %v", cfg.values)
				}
				c.same(t, cfg)
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("reading the spoilt cache hangs")
			}
			if tc.name == "FIFO" || tc.name == "symlink to a whole cache" {
				os.Remove(path) // the atomic write renames over a file; these are left for git's answer
				c.open(t, -time.Hour)
			}
			if _, cached := c.open(t, -time.Hour); !cached {
				t.Error("the cache was not written anew")
			}
		})
	}
}

// TestConfigCacheUnanswered: a cached configuration holds only the kept keys and names the first other key it
// was asked for; git's answer holds every key.
func TestConfigCacheUnanswered(t *testing.T) {
	t.Parallel()
	c := newCacheRepo(t)
	c.git(t, "config", "bernstein.tracker", "jira")
	c.git(t, "config", "core.abbrev", "12")
	cfg, _ := c.open(t, -time.Hour)
	if v, _ := cfg.Get("core.abbrev"); v != "12" || cfg.Unanswered() != "" {
		t.Errorf("git's answer: core.abbrev %q, Unanswered %q", v, cfg.Unanswered())
	}
	cfg, cached := c.open(t, -time.Hour)
	if !cached {
		t.Fatal("not cached")
	}
	if v, ok := cfg.Get("core.abbrev"); ok || cfg.Unanswered() != "core.abbrev" {
		t.Errorf("the cache answered core.abbrev %q (%v), Unanswered %q", v, ok, cfg.Unanswered())
	}
	cfg.Subsections("trailer", "key")
	if cfg.Unanswered() != "core.abbrev" {
		t.Errorf("Unanswered %q, want the first key asked", cfg.Unanswered())
	}
	if v, _ := cfg.Get("Bernstein.Tracker"); v != "jira" {
		t.Errorf("bernstein.tracker %q", v)
	}

	// The repository says so too, where a listing asks before it writes (ticketcommits.Run).
	repo, err := Discover(c.Dir, c.getenv, WithConfigCache(cacheKeeps))
	if err != nil {
		t.Fatal(err)
	}
	repo.configRacy = -time.Hour
	if cfg, err = repo.Configuration(); err != nil || cfg.keep == nil {
		t.Fatalf("not read from the cache: %v", err)
	}
	if err := repo.Unreadable(); err != nil {
		t.Errorf("Unreadable before any key outside the cache was asked: %v", err)
	}
	cfg.Get("core.abbrev")
	if err := repo.Unreadable(); err == nil || !strings.Contains(err.Error(), "core.abbrev") {
		t.Errorf("Unreadable after core.abbrev was asked = %v, want it named", err)
	}
}
