package archives_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
)

// KeepNoted keeps what the bundles folder alone holds with the noted digest, with its sidecars; not an
// archive already on the ref, one changed since it was noted, or one the folder lacks. With nothing to keep
// it makes no commit (and asks for no author).
func TestKeepNoted(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	head := gitext.NewHash(g.Commit("one", nil))
	r := open(t, g)
	bundles := t.TempDir()
	_, kept := recorded(t, bundles, "archive bytes", "sig")

	changed := notes.Entry{V: 1, Tracker: "github", Ticket: "ENG-7", Bundle: "changed.tar.gz",
		BundleSHA256: hexsum([]byte("as noted"))}
	p := filepath.Join(bundles, "github", "ENG-7", "changed.tar.gz")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("edited since"), 0o644); err != nil {
		t.Fatal(err)
	}
	absent := notes.Entry{V: 1, Tracker: "github", Ticket: "ENG-8", Bundle: "absent.tar.gz",
		BundleSHA256: hexsum([]byte("nowhere"))}
	if _, err := notes.Add(r, notes.DefaultRef, head, sig, kept, changed, absent); err != nil {
		t.Fatal(err)
	}

	asked := 0
	author := func() gitext.Signature { asked++; return sig }
	n, err := archives.KeepNoted(r, notes.DefaultRef, bundles, author)
	if err != nil || n != 2 || asked != 1 {
		t.Fatalf("KeepNoted = %d, %v (author asked %d times), want the archive and its .jws", n, err, asked)
	}
	files := g.Git("ls-tree", "-r", "--name-only", string(archives.Ref))
	if strings.Count(files, "\n") != 1 || !strings.Contains(files, "github/ENG-42/"+kept.BundleSHA256+".tar.gz") {
		t.Errorf("the ref has\n%s\nwant ENG-42's archive and .jws only", files)
	}

	n, err = archives.KeepNoted(r, notes.DefaultRef, bundles, author)
	if err != nil || n != 0 || asked != 1 {
		t.Fatalf("again: %d, %v (author asked %d times), want nothing kept and no commit", n, err, asked)
	}
}
