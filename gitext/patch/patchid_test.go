package patch

import (
	"bytes"
	"math/rand"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// TestPatchIDLikeGit holds gitext.PatchID of our diff (Differ.WriteDiff) against `git show C | git patch-id
// --stable` on every commit of the generated history TestByteIdenticalShare uses (edits with diff drivers,
// renames and copies, binaries edited in place, mode changes, deletions), with its objects loose and again
// after `git gc` packed them (binary files hash their ids as git show shortens them, which then depends on
// the pack index).
func TestPatchIDLikeGit(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	needGit(t)
	r := gittest.New(t)
	r.Git("config", "diff.renames", "copies")
	r.Git("config", "diff.ini.xfuncname", "^\\[([a-z]+)\\]$")
	g := newHistory(rand.New(rand.NewSource(21)), r)
	g.seed()
	for i := 0; i < 80; i++ {
		g.step(i)
	}
	check := func(stage string) {
		repo, err := gitext.Discover(r.Dir, r.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		ab := repo.NewAbbrev("")
		defer ab.Close()
		d := NewDiffer(repo.Repository, WithObjectReader(repo.ReadObject))
		binaries := 0
		revs := strings.Fields(r.Git("rev-list", "HEAD"))
		for _, c := range revs {
			var buf bytes.Buffer
			if err := d.WriteDiff(&buf, plumbing.NewHash(c)); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(buf.Bytes(), []byte("\nGIT binary patch\n")) {
				binaries++
			}
			short := func(h string) string { return ab.Short(plumbing.NewHash(h)) }
			ours, _ := gitext.PatchID(buf.Bytes(), short)
			if theirs := gitPatchID(t, r, c); ours != theirs {
				t.Errorf("%s: commit %s: patch id %q, git patch-id --stable says %q", stage, c, ours, theirs)
			}
			// A bundle takes the id from the part diff it keeps for the series (diffstat first): the same id.
			buf.Reset()
			if err := d.WritePartDiff(&buf, plumbing.NewHash(c)); err != nil {
				t.Fatal(err)
			}
			if fromPart, _ := gitext.PatchID(buf.Bytes(), short); fromPart != ours {
				t.Errorf("%s: commit %s: patch id of the part diff %q, of the diff %q", stage, c, fromPart, ours)
			}
		}
		if binaries == 0 {
			t.Errorf("%s: no commit of the history changes a binary file", stage)
		}
		t.Logf("%s: %d commits, %d with binary files", stage, len(revs), binaries)
	}
	check("loose objects")
	r.Git("gc", "-q")
	check("after git gc")
}

// gitPatchID is `git show C | git patch-id --stable`'s id, "" when it prints none.
func gitPatchID(t testing.TB, r *gittest.Repo, commit string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", "git show "+commit+" | git patch-id --stable")
	cmd.Dir, cmd.Env = r.Dir, r.Env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git show | git patch-id: %v", err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return id
}
