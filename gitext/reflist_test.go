package gitext_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// listRefs reads refs itself in the plain case git writes: it must list what go-git lists, in go-git's order
// (HistoryTips' order, which the ticket index records), and every peeled id it keeps from packed-refs must be
// what git peels the tag to. Anything unusual (a symlink under refs/) is left to go-git.
func TestListRefsAgreesWithGoGitAndGit(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Initial commit", map[string]string{"a.txt": "a\n"})
	for i, name := range []string{"feature/x", "feature/y", "fix", "release/3.2"} {
		r.Commit("Work on "+name, map[string]string{"a.txt": name})
		r.Git("branch", name)
		r.Git("update-ref", "refs/remotes/origin/"+name, "HEAD")
		if i%2 == 0 {
			r.Git("tag", "-a", "-m", "release", "v3."+string(rune('0'+i)))
		} else {
			r.Git("tag", "light-"+string(rune('0'+i)))
		}
	}
	r.Git("tag", "-a", "-m", "a tag of a tag", "nested", "v3.0")
	r.Git("tag", "tree-tag", "HEAD^{tree}")
	r.Git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/fix")
	r.Git("notes", "add", "-m", "a note", "HEAD")
	check := func(stage string, wantOwn bool) {
		t.Helper()
		repo, err := gitext.Discover(r.Dir, r.Getenv, objstore.WithGoGit())
		if err != nil {
			t.Fatal(err)
		}
		own, ok, err := repo.RefListing(true)
		if err != nil || ok != wantOwn {
			t.Fatalf("%s: listRefs ok = %v (%v), want %v", stage, ok, err, wantOwn)
		}
		if !ok {
			return
		}
		theirs, _, err := repo.RefListing(false)
		if err != nil {
			t.Fatal(err)
		}
		var plain []string
		for _, l := range own {
			name, rest, _ := strings.Cut(l, " ")
			id, peeled, hasPeel := strings.Cut(rest, " ^")
			plain = append(plain, name+" "+id)
			if hasPeel {
				if want := r.Rev(name + "^{}"); peeled != want {
					t.Errorf("%s: %s peels to %s by packed-refs, git says %s", stage, name, peeled, want)
				}
			}
		}
		if !reflect.DeepEqual(plain, theirs) {
			t.Errorf("%s: listRefs gives\n%s\ngo-git gives\n%s", stage, strings.Join(plain, "\n"), strings.Join(theirs, "\n"))
		}
	}
	check("loose", true)
	r.Git("pack-refs", "--all")
	check("packed", true)
	// Loose refs over packed ones (a branch moved after pack-refs), and a new loose tag beside packed ones.
	r.Commit("Later work", map[string]string{"a.txt": "later"})
	r.Git("branch", "-f", "fix")
	r.Git("tag", "-a", "-m", "later", "v4.0")
	check("loose over packed", true)
	if err := os.Symlink(filepath.Join(r.Dir, ".git", "refs", "heads", "fix"),
		filepath.Join(r.Dir, ".git", "refs", "heads", "linked")); err != nil {
		t.Fatal(err)
	}
	check("a symlinked ref", false)
}

// ShortName must name every valid ref as go-git's Short does (the names are shown and matched against tickets).
func TestShortNameIsGoGitsShort(t *testing.T) {
	t.Parallel()
	for _, n := range []string{"HEAD", "refs/heads/main", "refs/heads/feature/ENG-42", "refs/remotes/origin/main",
		"refs/remotes/origin/HEAD", "refs/tags/v1.0", "refs/tags/heads/x", "refs/heads/tags/x", "refs/notes/commits",
		"refs/stash", "refs/heads/", "refs/remotes/", "refs/", "refs/bernstein/archives", "main", "refs/remotes/a/b/c"} {
		if got, want := gitext.ShortName(gitext.RefName(n)), gitext.RefName(n).Short(); got != want {
			t.Errorf("ShortName(%q) = %q, go-git's Short says %q", n, got, want)
		}
	}
}
