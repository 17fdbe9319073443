package gitext_test

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// lookupRepo is a small history with a side branch, a folder, an executable and a symlink, a remote and a local
// diff setting: what the lookups that replaced go-git's methods read, each held to git's own answer.
func lookupRepo(t *testing.T) (*gittest.Repo, *gitext.Repo) {
	t.Helper()
	r := gittest.New(t)
	r.Commit("root", map[string]string{"a.txt": "a\n", "dir/b.txt": "b\n"})
	r.Git("checkout", "-q", "-b", "side")
	r.Commit("side", map[string]string{"side.txt": "s\n"})
	r.Git("checkout", "-q", "-")
	r.Write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(r.Dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Git("rm", "-q", "dir/b.txt")
	r.Commit("second", map[string]string{"a.txt": "a2\n", "dir/c.txt": "c\n"})
	r.Git("remote", "add", "upstream", "https://example.com/x.git")
	r.Git("remote", "add", "origin", "https://example.com/y.git")
	r.Git("config", "diff.renames", "copies")
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return r, repo
}

func TestResolveAndCommitLikeGit(t *testing.T) {
	t.Parallel()
	r, repo := lookupRepo(t)
	for _, rev := range []string{"HEAD", "HEAD~1", "side", "refs/heads/side", r.Rev("HEAD")[:10]} {
		h, err := revparse.Resolve(repo, rev)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", rev, err)
		}
		if want := r.Rev(rev); h.String() != want {
			t.Errorf("Resolve(%q) = %s, git rev-parse says %s", rev, h, want)
		}
	}
	if _, err := revparse.Resolve(repo, "no-such-branch"); err == nil {
		t.Error("Resolve of a missing branch: no error")
	}
	h := gitext.NewHash(r.Rev("HEAD"))
	c, err := repo.Commit(h)
	if err != nil {
		t.Fatal(err)
	}
	if c.Hash != h || c.TreeHash.String() != r.Rev("HEAD^{tree}") || len(c.ParentHashes) != 1 ||
		c.ParentHashes[0].String() != r.Rev("HEAD~1") || c.Message != r.Git("log", "-1", "--format=%B")+"\n" {
		t.Errorf("Commit(HEAD) = %+v", c)
	}
	if got, want := c.Author.Name+" <"+c.Author.Email+"> "+c.Committer.When.Format("2006-01-02T15:04:05-07:00"),
		r.Git("log", "-1", "--format=%an <%ae> %cI"); got != want {
		t.Errorf("Commit(HEAD) author and commit date: %q, git says %q", got, want)
	}
	if _, err := repo.Commit(gitext.NewHash(r.Rev("HEAD^{tree}"))); err == nil {
		t.Error("Commit of a tree: no error")
	}
	if _, err := repo.Commit(gitext.NewHash(strings.Repeat("1", 40))); !errors.Is(err, gitext.ErrObjectNotFound) {
		t.Errorf("Commit of a missing object: %v, want ErrObjectNotFound", err)
	}
}

func TestTreesLikeGit(t *testing.T) {
	t.Parallel()
	r, repo := lookupRepo(t)
	tree := gitext.NewHash(r.Rev("HEAD^{tree}"))
	entries, err := objstore.Of(repo).TreeEntries(tree)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, strings.TrimPrefix(e.Mode.String(), "0")+" "+e.Hash.String()+"\t"+e.Name)
	}
	var want []string
	for _, l := range strings.Split(r.Git("ls-tree", "HEAD"), "\n") {
		mode, rest, _ := strings.Cut(l, " ")
		_, rest, _ = strings.Cut(rest, " ") // the type
		want = append(want, mode+" "+rest)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("TreeEntries:\n%s\ngit ls-tree:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, tc := range []struct{ from, to string }{{"HEAD~1", "HEAD"}, {"", "HEAD~1"}, {"HEAD", "side"}} {
		var from gitext.Hash
		var args []string
		if tc.from != "" {
			from = gitext.NewHash(r.Rev(tc.from + "^{tree}"))
			args = []string{"diff-tree", "-r", "--no-renames", tc.from + "^{tree}", tc.to + "^{tree}"}
		} else {
			args = []string{"ls-tree", "-r", tc.to}
		}
		changes, err := objstore.Of(repo).DiffTree(from, gitext.NewHash(r.Rev(tc.to+"^{tree}")))
		if err != nil {
			t.Fatal(err)
		}
		got = got[:0]
		for _, ch := range changes {
			path := ch.To.Path
			if path == "" {
				path = ch.From.Path
			}
			got = append(got, path+" "+ch.From.Hash.String()+" "+ch.To.Hash.String())
		}
		want = want[:0]
		for _, l := range strings.Split(r.Git(args...), "\n") {
			meta, path, _ := strings.Cut(l, "\t")
			f := strings.Fields(meta)
			if tc.from == "" { // ls-tree: <mode> <type> <blob>, all added
				want = append(want, path+" "+gitext.Hash{}.String()+" "+f[2])
			} else { // :<mode> <mode> <old> <new> <status>
				want = append(want, path+" "+f[2]+" "+f[3])
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("DiffTree(%s, %s):\n%s\ngit:\n%s", tc.from, tc.to, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	blob, mode, ok, err := objstore.Of(repo).TreeEntryAt(tree, "run.sh")
	if err != nil || !ok || mode != gitext.ModeExecutable || blob.String() != r.Rev("HEAD:run.sh") ||
		!strings.HasPrefix(r.Git("ls-tree", "HEAD", "run.sh"), "100755 ") {
		t.Errorf("TreeEntryAt(run.sh) = %s %s %v %v", blob, mode, ok, err)
	}
}

func TestRefsAndRepoConfigLikeGit(t *testing.T) {
	t.Parallel()
	r, repo := lookupRepo(t)
	branch, ok := repo.CurrentBranch()
	if want := r.Git("symbolic-ref", "HEAD"); !ok || branch.String() != want {
		t.Errorf("CurrentBranch = %s, %v; git says %s", branch, ok, want)
	}
	if gitext.BranchRef("side") != gitext.RefName("refs/heads/side") {
		t.Errorf("BranchRef(side) = %s", gitext.BranchRef("side"))
	}
	remotes, err := repo.Remotes()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(remotes, " "), "origin upstream"; got != want {
		t.Errorf("Remotes = %s, want %s", got, want)
	}
	cfg, err := repo.Configuration()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := cfg.Get("diff.renames"); got != "copies" {
		t.Errorf("Configuration diff.renames = %q, want copies", got)
	}
	if got, ok := cfg.Get("diff.renameLimit"); ok {
		t.Errorf("Configuration diff.renameLimit = %q, want it unset", got)
	}
	r.Git("checkout", "-q", "--detach")
	detached, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := detached.CurrentBranch(); ok {
		t.Errorf("CurrentBranch on a detached HEAD = %s", b)
	}
}

func TestParseHash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{strings.Repeat("ab", 20), true},
		{strings.Repeat("AB", 20), true},
		{strings.Repeat("ab", 19), false},
		{strings.Repeat("ab", 21), false},
		{strings.Repeat("ag", 20), false},
		{"", false},
	} {
		h, ok := gitext.ParseHash(tc.in)
		if ok != tc.ok || gitext.IsHash(tc.in) != tc.ok {
			t.Errorf("ParseHash(%q) ok = %v, IsHash %v; want %v", tc.in, ok, gitext.IsHash(tc.in), tc.ok)
		}
		if ok && h.String() != strings.ToLower(tc.in) {
			t.Errorf("ParseHash(%q) = %s", tc.in, h)
		}
		if !ok && !h.IsZero() {
			t.Errorf("ParseHash(%q) failed but gave %s", tc.in, h)
		}
	}
}

func TestShallowCommitsLikeTheShallowFile(t *testing.T) {
	t.Parallel()
	r, _ := lookupRepo(t)
	whole, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got := whole.ShallowCommits(); len(got) != 0 {
		t.Errorf("a whole clone's shallow commits: %v", got)
	}
	dst := filepath.Join(filepath.Dir(r.Dir), "shallow")
	r.Git("clone", "-q", "--no-single-branch", "--depth", "1", "file://"+r.Dir, dst)
	shallow, err := gitext.Discover(dst, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join(dst, ".git", "shallow"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(file))
	sort.Strings(want)
	var got []string
	for _, h := range shallow.ShallowCommits() {
		got = append(got, h.String())
		if !shallow.IsShallow(h) {
			t.Errorf("IsShallow(%s) = false for a commit of the shallow file", h)
		}
	}
	if len(want) < 2 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ShallowCommits = %v, the shallow file lists %v", got, want)
	}
	if shallow.IsShallow(gitext.NewHash(r.Rev("HEAD~1"))) {
		t.Error("IsShallow of a commit the clone lacks")
	}
}

// Top is the working tree's top, from any folder in it, and a bare repository's git folder.
func TestTop(t *testing.T) {
	t.Parallel()
	r, repo := lookupRepo(t)
	sub, err := gitext.Discover(filepath.Join(r.Dir, "dir"), r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if repo.Top() != repo.WorkTree || sub.Top() != repo.WorkTree || repo.WorkTree == "" {
		t.Errorf("Top %q and from dir/ %q, want the worktree %q", repo.Top(), sub.Top(), repo.WorkTree)
	}
	bareDir := filepath.Join(t.TempDir(), "bare.git")
	r.Git("clone", "-q", "--bare", r.Dir, bareDir)
	bare, err := gitext.Discover(bareDir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if bare.WorkTree != "" || bare.Top() != bare.GitDir {
		t.Errorf("bare: Top %q, want its git folder %q", bare.Top(), bare.GitDir)
	}
}
