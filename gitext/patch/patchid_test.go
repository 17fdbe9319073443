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

// TestPatchIDLikeGit holds PatchID of our diff (Differ.WriteDiff) against `git show C | git patch-id
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
		d := NewDiffer(repo)
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
			ours, _ := PatchID(buf.Bytes(), short)
			if theirs := gitPatchID(t, r, c); ours != theirs {
				t.Errorf("%s: commit %s: patch id %q, git patch-id --stable says %q", stage, c, ours, theirs)
			}
			// A bundle takes the id from the part diff it keeps for the series (diffstat first): the same id.
			buf.Reset()
			if err := d.WritePartDiff(&buf, plumbing.NewHash(c)); err != nil {
				t.Fatal(err)
			}
			if fromPart, _ := PatchID(buf.Bytes(), short); fromPart != ours {
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

// TestTreeDiffPatchIDLikeGit holds the patch id of Differ.WriteTreeDiff between commits several steps apart
// against `git diff A B | git patch-id --stable`: what the change controls compare a pull request's diff with.
func TestTreeDiffPatchIDLikeGit(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a long check against git: make test runs it, go test -short skips it")
	}
	needGit(t)
	r := gittest.New(t)
	r.Git("config", "diff.renames", "true")
	g := newHistory(rand.New(rand.NewSource(27)), r)
	g.seed()
	for i := 0; i < 30; i++ {
		g.step(i)
	}
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	ab := repo.NewAbbrev("")
	defer ab.Close()
	d := NewDiffer(repo)
	revs := strings.Fields(r.Git("rev-list", "--first-parent", "HEAD"))
	pairs := 0
	for i := 0; i+5 < len(revs); i += 3 {
		from, to := revs[i+5], revs[i]
		var buf bytes.Buffer
		if err := d.WriteTreeDiff(&buf, plumbing.NewHash(from), plumbing.NewHash(to)); err != nil {
			t.Fatal(err)
		}
		ours, _ := PatchID(buf.Bytes(), func(h string) string { return ab.Short(plumbing.NewHash(h)) })
		cmd := exec.Command("sh", "-c", "git diff "+from+" "+to+" | git patch-id --stable")
		cmd.Dir, cmd.Env = r.Dir, r.Env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git diff | git patch-id: %v", err)
		}
		theirs, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
		if ours != theirs {
			t.Errorf("%s..%s: patch id %q, git says %q", from[:12], to[:12], ours, theirs)
		}
		pairs++
	}
	if pairs < 5 {
		t.Fatalf("only %d pairs compared", pairs)
	}
}
