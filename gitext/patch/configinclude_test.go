package patch

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// The diff settings come from the configuration as the user's git reads it: diff.renames=false in an
// [include]d file makes git format-patch write a rename as a deletion and an addition, and so must we (go-git's
// own reading skips includes, and wrote "rename from"). Also core.attributesFile under ~/ with the run's HOME.
func TestDiffSettingsFromIncludedConfig(t *testing.T) {
	needGit(t)
	t.Parallel()
	r := gittest.New(t)
	body := "line one\nline two\nline three\nline four\nline five\n"
	r.Commit("Initial commit", map[string]string{"old.txt": body, "data.bin": "a\nb\n"})
	r.Git("mv", "old.txt", "new.txt")
	r.Write("new.txt", body+"line six\n")
	r.Write("data.bin", "a\nc\n")
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "Rename old.txt")
	r.Write(".git/renames.cfg", "[diff]\n\trenames = false\n")
	r.Git("config", "include.path", "renames.cfg")
	// The run's HOME (gittest gives each repository its own), not the process's.
	if err := os.WriteFile(filepath.Join(r.Getenv("HOME"), "attrs"), []byte("*.bin binary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Git("config", "core.attributesFile", "~/attrs")
	if r.Git("config", "diff.renames") != "false" {
		t.Fatal("git does not read the included diff.renames")
	}
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteSeries(&out, repo, []gitext.Hash{gitext.NewHash(r.Rev("HEAD"))}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Bytes(), []byte("rename from")) || !bytes.Contains(out.Bytes(), []byte("GIT binary patch")) {
		t.Errorf("the included diff.renames=false or ~/attrs was not read:\n%s", out.Bytes())
	}
	assertLikeGit(t, r, r.Rev("HEAD"), out.Bytes())
}
