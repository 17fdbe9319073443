package share_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/share"
)

var sig = gitext.Signature{Name: "T", Email: "t@example.com", When: time.Unix(1767225600, 0).UTC()}

// team is a bare remote made by the git CLI and two clones of it, each with the one commit the remote has.
func team(t *testing.T) (remote *gittest.Repo, one, two *gittest.Repo) {
	g := gittest.New(t)
	g.Commit("init", nil)
	root := filepath.Dir(g.Dir)
	bare := filepath.Join(root, "remote.git")
	g.Git("clone", "-q", "--bare", g.Dir, bare)
	for _, name := range []string{"one", "two"} {
		g.Git("clone", "-q", bare, filepath.Join(root, name))
	}
	return g.Open(bare), g.Open(filepath.Join(root, "one")), g.Open(filepath.Join(root, "two"))
}

func open(t *testing.T, g *gittest.Repo) *gitext.Repo {
	r, err := gitext.Discover(g.Dir, g.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// keep adds one archive file and one note line for it, as record does.
func keep(t *testing.T, g *gittest.Repo, r *gitext.Repo, id string) {
	blob, err := objstore.Of(r).WriteBlob([]byte("archive " + id))
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte(id))
	sum := hex.EncodeToString(digest[:])
	if _, err := objstore.Of(r).AddFiles(archives.Ref, sig, "add\n", []objstore.TreeFile{{Path: "github/" + id + "/" + sum + ".tar.gz", Blob: blob}}); err != nil {
		t.Fatal(err)
	}
	head := gitext.NewHash(g.Rev("HEAD"))
	e := notes.Entry{V: 1, Tracker: "github", Ticket: id, Bundle: "b.tar.gz", BundleSHA256: sum}
	if _, err := notes.Add(r, notes.DefaultRef, head, sig, e); err != nil {
		t.Fatal(err)
	}
}

func opts(g *gittest.Repo, r *gitext.Repo) share.Options {
	return share.Options{Repo: r, Remote: "origin", NotesRef: notes.DefaultRef, Author: sig, Env: g.Env, Attempts: 50}
}

// Both clones push at the same moment, several times over: every archive and every note line of both lands on
// the remote, and a fetch brings each clone the other's.
func TestConcurrentPushesBothLand(t *testing.T) {
	remote, one, two := team(t)
	r1, r2 := open(t, one), open(t, two)
	rounds := 3
	if testing.Short() {
		rounds = 1 // one race of the two pushes; make test runs three
	}
	for round := 0; round < rounds; round++ {
		keep(t, one, r1, fmt.Sprintf("ENG-1%d", round))
		keep(t, two, r2, fmt.Sprintf("ENG-2%d", round))
		start := make(chan struct{})
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, side := range []struct {
			g *gittest.Repo
			r *gitext.Repo
		}{{one, r1}, {two, r2}} {
			wg.Add(1)
			go func(i int, g *gittest.Repo, r *gitext.Repo) {
				defer wg.Done()
				<-start
				var p *share.Pushed
				p, errs[i] = share.Push(opts(g, r))
				if p != nil {
					t.Logf("round %d, clone %d: pushed in %d rounds", round, i+1, p.Attempts)
				}
			}(i, side.g, side.r)
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
	files := remote.Git("ls-tree", "-r", "--name-only", string(archives.Ref))
	note := remote.Git("notes", "--ref=bernstein", "show", remote.Rev("HEAD"))
	for round := 0; round < rounds; round++ {
		for _, id := range []string{fmt.Sprintf("ENG-1%d", round), fmt.Sprintf("ENG-2%d", round)} {
			if !strings.Contains(files, "github/"+id+"/") {
				t.Errorf("archive of %s is not on the remote:\n%s", id, files)
			}
			if !strings.Contains(note, `"ticket":"`+id+`"`) {
				t.Errorf("note line of %s is not on the remote:\n%s", id, note)
			}
		}
	}
	if n := strings.Count(note, "\n") + 1; n != 2*rounds {
		t.Errorf("the remote's note has %d lines, want %d:\n%s", n, 2*rounds, note)
	}
	remote.Git("fsck", "--strict")
	// A fetch brings each clone everything, and git agrees the notes are what cat_sort_uniq makes.
	for _, side := range []struct {
		g *gittest.Repo
		r *gitext.Repo
	}{{one, r1}, {two, r2}} {
		if _, err := share.Fetch(opts(side.g, side.r)); err != nil {
			t.Fatal(err)
		}
		if got := side.g.Git("ls-tree", "-r", "--name-only", string(archives.Ref)); got != files {
			t.Errorf("%s has\n%s\nthe remote\n%s", side.g.Dir, got, files)
		}
		if got := side.g.Git("notes", "--ref=bernstein", "show", "HEAD"); got != note {
			t.Errorf("%s's note\n%s\nthe remote's\n%s", side.g.Dir, got, note)
		}
	}
}

// A remote whose archives ref breaks the layout (here, a symlink) is refused whole: nothing of it is merged,
// and the local ref stays where it was. One whose archive differs under the same name is a conflict, refused.
func TestFetchRefusesHostileArchives(t *testing.T) {
	_, one, two := team(t)
	r2 := open(t, two)
	keep(t, two, r2, "ENG-7")
	before := two.Rev(string(archives.Ref))
	// The remote gets a tree with a symlink, built by hand.
	link := gitStdin(t, one, "../../etc/passwd", "hash-object", "-w", "--stdin")
	t3 := mktree(t, one, "120000 blob "+link+"\t"+strings.Repeat("a", 64)+".tar.gz")
	t2 := mktree(t, one, "040000 tree "+t3+"\tENG-9")
	t1 := mktree(t, one, "040000 tree "+t2+"\tgithub")
	c := one.Git("commit-tree", "-m", "evil", t1)
	one.Git("push", "-q", "origin", c+":"+string(archives.Ref))
	_, err := share.Fetch(opts(two, r2))
	if err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "mode") {
		t.Fatalf("a symlink in the remote's archives: %v", err)
	}
	if two.Rev(string(archives.Ref)) != before {
		t.Fatal("a refused fetch moved the archives ref")
	}
}

func mktree(t *testing.T, g *gittest.Repo, line string) string {
	t.Helper()
	return gitStdin(t, g, line+"\n", "mktree")
}

func gitStdin(t *testing.T, g *gittest.Repo, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = g.Dir, g.Env, strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// REMOTE defaults to bernstein.remote, else the current branch's upstream remote, else origin.
func TestDefaultRemote(t *testing.T) {
	_, one, _ := team(t)
	check := func(want string) {
		t.Helper()
		r := open(t, one)
		cfg, err := r.Config(one.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		if got := share.DefaultRemote(r, cfg); got != want {
			t.Errorf("DefaultRemote = %q, want %q", got, want)
		}
	}
	one.Git("remote", "add", "upstream", "../remote.git")
	one.Git("checkout", "-q", "-b", "topic")
	check("origin") // no upstream: origin
	one.Git("config", "branch.topic.remote", "upstream")
	check("upstream")
	one.Git("config", "branch.topic.remote", ".") // a local branch's upstream is no remote
	check("origin")
	one.Git("config", "bernstein.remote", "team")
	check("team")
}
