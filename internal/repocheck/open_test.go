package repocheck

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// Open names the repository as the report shows it (the user's DIR, else its top folder relative to the
// working folder) and puts a folder that is no repository into the check's Err rather than failing.
func TestOpen(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	g.Commit("one", map[string]string{"sub/a.txt": "a\n"})
	outside := t.TempDir()
	if Open(nil) != nil {
		t.Error("Open(nil) is a check; want none without --repo")
	}
	for _, tc := range []struct {
		name, dir, wd, shown, err string
	}{
		{name: "--repo at the top", wd: g.Dir, shown: "."},
		{name: "--repo in a subfolder", wd: filepath.Join(g.Dir, "sub"), shown: ".."},
		{name: "--repo=DIR", dir: g.Dir, wd: outside, shown: g.Dir},
		{name: "--repo=relative", dir: "repo", wd: filepath.Dir(g.Dir), shown: "repo"},
		{name: "--repo outside any", wd: outside, shown: outside, err: "--repo needs a repository"},
		{name: "--repo=DIR no repository", dir: "nothing", wd: outside, shown: "nothing", err: "--repo needs a repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rc := Open(&Flag{Dir: tc.dir, Wd: tc.wd, Getenv: g.Getenv})
			if rc.Dir != tc.shown {
				t.Errorf("Dir %q, want %q", rc.Dir, tc.shown)
			}
			switch {
			case tc.err == "" && (rc.Err != nil || rc.Check == nil):
				t.Errorf("Err %v, Check set %v: want the repository opened", rc.Err, rc.Check != nil)
			case tc.err != "" && (rc.Err == nil || !strings.Contains(rc.Err.Error(), tc.err) || rc.Check != nil):
				t.Errorf("Err %v, want %q and no Check", rc.Err, tc.err)
			}
		})
	}
}
