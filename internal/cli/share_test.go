package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// record and bundle --note keep what they write on refs/bernstein/archives; push keeps what only the bundles
// folder has (here: the ref deleted, as a hook past its budget or an older version leaves it), shares both refs
// with a bare remote, and a clone gets the archive back by its noted digest.
func TestRecordKeepsArchivesAndPushSharesThem(t *testing.T) {
	t.Parallel()
	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	if _, e, c := runIn(t, r.Dir, r.Env, "record", "HEAD"); c != 0 {
		t.Fatalf("record: %s", e)
	}
	head := r.Rev("HEAD")
	sum, _ := record.FileSHA256(filepath.Join(r.Dir, ".git", "bernstein", "bundles", "github", "ENG-42", head[:12]+".tar.gz"))
	if got := r.Git("ls-tree", "-r", "--name-only", string(archives.Ref)); got != "github/ENG-42/"+sum+".tar.gz" {
		t.Fatalf("after record the archives ref holds %q", got)
	}
	if _, e, c := runIn(t, r.Dir, r.Env, "bundle", "--out", "x.tar.gz", "--no-pr", "--note", "HEAD~1", "ENG-42"); c != 0 {
		t.Fatalf("bundle --note: %s", e)
	}
	xsum, _ := record.FileSHA256(filepath.Join(r.Dir, "x.tar.gz"))
	if !strings.Contains(r.Git("ls-tree", "-r", "--name-only", string(archives.Ref)), "github/ENG-42/"+xsum+".tar.gz") {
		t.Fatal("bundle --note did not keep its archive")
	}

	r.Git("update-ref", "-d", string(archives.Ref))
	bare := bareOrigin(r)
	out, e, c := runIn(t, r.Dir, r.Env, "push")
	if c != 0 || !strings.Contains(out, "Kept 1 file in refs/bernstein/archives.") || !strings.Contains(out, "Pushed refs/notes/bernstein and refs/bernstein/archives to origin") {
		t.Fatalf("push: %d\n%s\n%s", c, out, e)
	}
	// x.tar.gz is outside the bundles folder: push cannot find it again, and says nothing of it.
	remote := r.Open(bare)
	if got := remote.Git("ls-tree", "-r", "--name-only", string(archives.Ref)); got != "github/ENG-42/"+sum+".tar.gz" {
		t.Fatalf("the remote's archives: %q", got)
	}

	r.Git("push", "-q", "origin", "main")
	clone := filepath.Join(filepath.Dir(r.Dir), "clone")
	r.Git("clone", "-q", bare, clone)
	if out, e, c := runIn(t, clone, r.Env, "fetch"); c != 0 || !strings.Contains(out, "refs/bernstein/archives merged") {
		t.Fatalf("fetch: %d %s %s", c, out, e)
	}
	out, e, c = runIn(t, clone, r.Env, "get", "HEAD", "--out", "ev")
	if c != 0 || !strings.Contains(out, "from refs/bernstein/archives") {
		t.Fatalf("get: %d %s %s", c, out, e)
	}
	if got, _ := record.FileSHA256(filepath.Join(clone, "ev", "github", "ENG-42", head[:12]+".tar.gz")); got != sum {
		t.Fatalf("got an archive with sha256 %s, noted %s", got, sum)
	}
	// HEAD~1's archive is noted but kept nowhere the clone can reach: exit 1, said.
	if _, e, c := runIn(t, clone, r.Env, "get", "HEAD~1", "--out", "ev"); c != 1 || !strings.Contains(e, "no copy with the noted digest") {
		t.Fatalf("get of an archive kept nowhere: %d %s", c, e)
	}
}
