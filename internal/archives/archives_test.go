package archives_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
)

var sig = gitext.Signature{Name: "T", Email: "t@example.com", When: time.Unix(1767225600, 0).UTC()}

func hexsum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// recorded writes an archive and a .jws as record leaves them in a bundles folder.
func recorded(t *testing.T, dir, archive, jws string) (archives.Bundle, notes.Entry) {
	t.Helper()
	folder := filepath.Join(dir, "github", "ENG-42")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(folder, "1a2b3c4d5e6f.tar.gz")
	os.WriteFile(p, []byte(archive), 0o644)
	os.WriteFile(p+".jws", []byte(jws), 0o644)
	e := notes.Entry{V: 1, Tracker: "github", Ticket: "ENG-42", Bundle: "1a2b3c4d5e6f.tar.gz", BundleSHA256: hexsum([]byte(archive))}
	return archives.Bundle{Tracker: "github", Ticket: "ENG-42", SHA256: e.BundleSHA256, Archive: p,
		Sidecars: map[string]string{archives.JWS: p + ".jws"}}, e
}

func open(t *testing.T, g *gittest.Repo) *gitext.Repo {
	r, err := gitext.Discover(g.Dir, g.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Store names files by content; a second signature of the same archive sits beside the first; Get finds the
// bundles folder's copy first, the ref's when the folder has none, and passes over a copy whose digest differs.
func TestStoreAndGet(t *testing.T) {
	g := gittest.New(t)
	r := open(t, g)
	bundles := t.TempDir()
	b, e := recorded(t, bundles, "archive bytes", "sig one")
	if n, err := archives.Store(r, sig, []archives.Bundle{b}); err != nil || n != 2 {
		t.Fatalf("store: %d, %v", n, err)
	}
	os.WriteFile(b.Archive+".jws", []byte("sig two"), 0o644)
	if n, err := archives.Store(r, sig, []archives.Bundle{b}); err != nil || n != 1 {
		t.Fatalf("store a second signature: %d, %v", n, err)
	}
	want := "github/ENG-42/" + e.BundleSHA256 + "." + hexsum([]byte("sig one")) + ".jws\n" +
		"github/ENG-42/" + e.BundleSHA256 + "." + hexsum([]byte("sig two")) + ".jws\n" +
		"github/ENG-42/" + e.BundleSHA256 + ".tar.gz"
	got := strings.Join(sortedLines(g.Git("ls-tree", "-r", "--name-only", string(archives.Ref))), "\n")
	if got != strings.Join(sortedLines(want), "\n") {
		t.Fatalf("tree:\n%s\nwant:\n%s", got, want)
	}
	c, _, err := archives.Get(r, bundles, e)
	if err != nil || c.From != archives.FromBundleDir {
		t.Fatalf("get: %+v, %v", c, err)
	}
	// A changed local copy is passed over for the ref's.
	os.WriteFile(b.Archive, []byte("edited"), 0o644)
	c, skipped, err := archives.Get(r, bundles, e)
	if err != nil || c.From != archives.FromRef || string(c.Archive) != "archive bytes" || len(c.Sidecars) != 2 || len(skipped) != 1 {
		t.Fatalf("get from the ref: %+v, %v, %v", c, skipped, err)
	}
	// Storing a changed archive under the noted digest is refused.
	if _, err := archives.Store(r, sig, []archives.Bundle{b}); err == nil || !strings.Contains(err.Error(), "not the noted") {
		t.Fatalf("storing a changed archive: %v", err)
	}
	out := t.TempDir()
	ws, err := archives.Write(out, c)
	if err != nil || len(ws) != 3 {
		t.Fatalf("write: %v, %v", ws, err)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "github", "ENG-42", "1a2b3c4d5e6f.tar.gz")); string(data) != "archive bytes" {
		t.Fatalf("written archive %q", data)
	}
	if ws, err := archives.Write(out, c); err != nil || !ws[0].Already {
		t.Fatalf("writing again: %v, %v", ws, err)
	}
	os.WriteFile(filepath.Join(out, "github", "ENG-42", "1a2b3c4d5e6f.tar.gz"), []byte("other"), 0o644)
	if _, err := archives.Write(out, c); err == nil || !strings.Contains(err.Error(), "not overwriting") {
		t.Fatalf("writing over another file: %v", err)
	}
	// Nowhere: ErrNotHeld.
	e.BundleSHA256 = hexsum([]byte("never recorded"))
	if _, _, err := archives.Get(r, bundles, e); !errors.Is(err, archives.ErrNotHeld) {
		t.Fatalf("get what nobody holds: %v", err)
	}
}

func sortedLines(s string) []string {
	l := strings.Split(s, "\n")
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j] < l[j-1]; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
	return l
}

// Check refuses a tree from a remote that is not exactly the layout: links, gitlinks, executables, a file where
// a folder belongs, names that are not digests, folder names record would not write, and files whose name
// promises another digest are refused by Find.
func TestCheckRefusesHostileTrees(t *testing.T) {
	g := gittest.New(t)
	r := open(t, g)
	blob := func(s string) string {
		cmd := exec.Command("git", "hash-object", "-w", "--stdin")
		cmd.Dir, cmd.Env, cmd.Stdin = g.Dir, g.Env, strings.NewReader(s)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	mktree := func(lines ...string) string {
		cmd := exec.Command("git", "mktree", "--missing")
		cmd.Dir, cmd.Env, cmd.Stdin = g.Dir, g.Env, strings.NewReader(strings.Join(lines, "\n")+"\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mktree %v: %v", lines, err)
		}
		return strings.TrimSpace(string(out))
	}
	data := "archive"
	good := hexsum([]byte(data)) + ".tar.gz"
	b := blob(data)
	nest := func(tracker, ticket, entry string) gitext.Hash {
		t2 := mktree(entry)
		t1 := mktree("040000 tree " + t2 + "\t" + ticket)
		return gitext.NewHash(mktree("040000 tree " + t1 + "\t" + tracker))
	}
	if err := archives.Check(r, nest("github", "ENG-1", "100644 blob "+b+"\t"+good)); err != nil {
		t.Fatalf("good tree refused: %v", err)
	}
	for name, tree := range map[string]gitext.Hash{
		"symlink":      nest("github", "ENG-1", "120000 blob "+b+"\t"+good),
		"executable":   nest("github", "ENG-1", "100755 blob "+b+"\t"+good),
		"gitlink":      nest("github", "ENG-1", "160000 commit 0123456789012345678901234567890123456789\t"+good),
		"not a digest": nest("github", "ENG-1", "100644 blob "+b+"\tevil.tar.gz"),
		"dot dot":      nest("..", "ENG-1", "100644 blob "+b+"\t"+good),
		"too deep":     nest("github", "ENG-1", "040000 tree "+mktree("100644 blob "+b+"\t"+good)+"\tdeeper"),
		"file on top":  gitext.NewHash(mktree("100644 blob " + b + "\t" + good)),
		"odd folder":   nest("git hub", "ENG-1", "100644 blob "+b+"\t"+good),
	} {
		if err := archives.Check(r, tree); err == nil {
			t.Errorf("%s: tree accepted", name)
		}
	}
	// A name promising another digest passes Check (the name is well formed) but Find refuses the file.
	other := hexsum([]byte("something else"))
	lying := nest("github", "ENG-1", "100644 blob "+b+"\t"+other+".tar.gz")
	cmd := exec.Command("git", "commit-tree", "-m", "x", lying.String())
	cmd.Dir, cmd.Env = g.Dir, g.Env
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	h := gitext.NewHash(strings.TrimSpace(string(out)))
	if _, err := objstore.Of(r).MergeRef(archives.Ref, h, sig, "m\n", objstore.Of(r).UnionTrees); err != nil {
		t.Fatal(err)
	}
	if _, _, err := archives.Find(r, "github", "ENG-1", other); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("a file whose name lies about its digest: %v", err)
	}
}

// Check reads again only what the local ref does not hold under the same hash at the same level: a folder known
// as a tracker's is no warrant for the same folder one level down, where it would put folders among the files.
func TestCheckSkipsKnownFoldersAtTheirLevelOnly(t *testing.T) {
	g := gittest.New(t)
	r := open(t, g)
	b, _ := recorded(t, t.TempDir(), "archive bytes", "sig")
	if _, err := archives.Store(r, sig, []archives.Bundle{b}); err != nil {
		t.Fatal(err)
	}
	tracker := g.Rev(string(archives.Ref) + ":github")
	if err := archives.Check(r, gitext.NewHash(g.Rev(string(archives.Ref)+"^{tree}"))); err != nil {
		t.Fatalf("the local tree itself: %v", err)
	}
	mk := func(line string) string {
		cmd := exec.Command("git", "mktree")
		cmd.Dir, cmd.Env, cmd.Stdin = g.Dir, g.Env, strings.NewReader(line+"\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	ticket := mk("040000 tree " + tracker + "\tENG-9")
	top := mk("040000 tree " + ticket + "\tjira")
	if err := archives.Check(r, gitext.NewHash(top)); err == nil {
		t.Fatal("a tracker folder one level down was accepted")
	}
}
