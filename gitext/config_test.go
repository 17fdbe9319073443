package gitext

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// TestConfigReadsAsGitDoes: values from [include] and [includeIf] files, the worktree's own file and the
// environment come out as `git config` prints them.
func TestConfigReadsAsGitDoes(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init", nil)
	gitDir := filepath.Join(r.Dir, ".git")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(gitDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("inc.cfg", "[bernstein]\n\ttracker = jira\n\ttrailer = Jira-Key\n")
	write("cond.cfg", "[bernstein]\n\tbaseBranch = trunk\n")
	write("never.cfg", "[bernstein]\n\tbaseBranch = never\n")
	r.Git("config", "include.path", "inc.cfg")
	r.Git("config", "includeIf.gitdir:"+r.Dir+"/.path", "cond.cfg") // a trailing / matches everything below
	r.Git("config", "includeIf.onbranch:nosuch.path", "never.cfg")
	r.Git("config", "--add", "bernstein.trailer", "Story")
	repo, err := Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GIT_CONFIG_PARAMETERS": "'bernstein.match'='trailer,message'"}
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return r.Getenv(k)
	}
	cfg, err := repo.Config(getenv)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"bernstein.tracker":    r.Git("config", "bernstein.tracker"),
		"bernstein.baseBranch": r.Git("config", "bernstein.baseBranch"),
		"Bernstein.Tracker":    "jira",
		"bernstein.match":      "trailer,message",
	} {
		if got, _ := cfg.Get(key); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if got := cfg.GetAll("bernstein.trailer"); len(got) != 2 || got[0] != "Jira-Key" || got[1] != "Story" {
		t.Errorf("bernstein.trailer = %q, want [Jira-Key Story] as git config --get-all lists them", got)
	}
	if got, _ := cfg.Get("bernstein.tracker"); got != "jira" {
		t.Errorf("an [include] file is not read: tracker %q", got)
	}
}
