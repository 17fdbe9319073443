package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectRootIsOneFolder: bundle and record read bernstein.yaml from one project root, the worktree top,
// whatever --sdd names: bundle used to read it beside --sdd's folder (dirname), record at the top, so `bundle
// --sdd elsewhere/.sdd` took elsewhere's settings.
func TestProjectRootIsOneFolder(t *testing.T) {
	t.Parallel()
	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.MkdirAll(filepath.Join(elsewhere, ".sdd"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Another project's settings, which this one must never read: unreadable YAML makes reading them an error.
	if err := os.WriteFile(filepath.Join(elsewhere, "bernstein.yaml"), []byte("lineage: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sdd := filepath.Join(elsewhere, ".sdd")
	if out, errOut, code := runIn(t, r.Dir, r.Env, "bundle", "--no-pr", "--sdd", sdd, "ENG-42"); code != 0 {
		t.Errorf("bundle --sdd %s read that folder's bernstein.yaml: exit %d\n%s%s", sdd, code, out, errOut)
	}
	if out, errOut, code := runIn(t, r.Dir, r.Env, "record", "--sdd", sdd, "HEAD"); code != 0 {
		t.Errorf("record --sdd: exit %d\n%s%s", code, out, errOut)
	}
	// The project's own bernstein.yaml is the one both read.
	if err := os.WriteFile(filepath.Join(r.Dir, "bernstein.yaml"), []byte("lineage: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"bundle", "--no-pr", "--sdd", sdd, "--out", "x.tar.gz", "ENG-42"}, {"record", "--sdd", sdd, "HEAD"}} {
		if _, errOut, code := runIn(t, r.Dir, r.Env, args...); code == 0 || !strings.Contains(errOut, filepath.Join(r.Dir, "bernstein.yaml")) {
			t.Errorf("%s: exit %d, want an error naming the project's bernstein.yaml:\n%s", args[0], code, errOut)
		}
	}
}
