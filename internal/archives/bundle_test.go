package archives_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// BuildBundle writes the bundle, and with a note asked for notes it on the revision and keeps it on the
// archives ref; a revision that does not resolve leaves the bundle written, returned with the error.
func TestBuildBundle(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	head := g.Commit("Add login\n\nRefs: ENG-42", map[string]string{"login.go": "1\n"})
	r := open(t, g)
	tk, err := ticket.Parse("jira", "ENG-42")
	if err != nil {
		t.Fatal(err)
	}
	build := func(out string) bundle.Options {
		return bundle.Options{Repo: r, Find: discover.Options{Ticket: tk, Sources: discover.AllSources,
			TrailerKeys: discover.DefaultTrailerKeys}, Out: out, CreatedAt: time.Unix(1767225600, 0).UTC()}
	}
	dir := t.TempDir()

	plain, err := archives.BuildBundle(context.Background(), archives.BundleRequest{Build: build(dir + "/plain.tar.gz")})
	if err != nil || plain.Noted != nil || len(plain.Manifest.Files) == 0 {
		t.Fatalf("without a note: %+v %v", plain, err)
	}
	note := &archives.NoteRequest{Repo: r, NotesRef: notes.DefaultRef, Rev: "HEAD", Author: sig}
	got, err := archives.BuildBundle(context.Background(), archives.BundleRequest{Build: build(dir + "/noted.tar.gz"), Note: note})
	if err != nil || got.Noted == nil || got.Noted.Commit.String() != head || got.Noted.Entry.Ticket != "ENG-42" {
		t.Fatalf("with a note on HEAD: %+v %v", got, err)
	}
	entries, err := notes.Entries(r, notes.DefaultRef)
	if err != nil || len(entries) != 1 || entries[0].BundleSHA256 != got.Noted.Entry.BundleSHA256 {
		t.Errorf("the notes: %+v %v", entries, err)
	}
	if kept, err := archives.Has(r, "jira", "ENG-42", got.Noted.Entry.BundleSHA256); err != nil || !kept {
		t.Errorf("the bundle is not kept on the archives ref: %v %v", kept, err)
	}
	note.Rev = "no-such-rev"
	got, err = archives.BuildBundle(context.Background(), archives.BundleRequest{Build: build(dir + "/unnoted.tar.gz"), Note: note})
	if got == nil || got.Out != dir+"/unnoted.tar.gz" || got.Noted != nil || err == nil ||
		!strings.Contains(err.Error(), "the bundle was written but not noted") {
		t.Errorf("a revision that does not resolve: %+v %v", got, err)
	}
}

// A pull request capture that cannot be (PRErr: flags that contradict each other) fails the bundle once the
// commits are found, and no archive is left.
func TestBuildBundleRefusedCapture(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	g.Commit("Add login\n\nRefs: ENG-42", map[string]string{"login.go": "1\n"})
	r := open(t, g)
	tk, err := ticket.Parse("jira", "ENG-42")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir() + "/ENG-42.tar.gz"
	refused := errors.New("--no-pr contradicts --require-pr")
	got, err := archives.BuildBundle(context.Background(), archives.BundleRequest{PRErr: refused,
		Build: bundle.Options{Repo: r, Find: discover.Options{Ticket: tk, Sources: discover.AllSources,
			TrailerKeys: discover.DefaultTrailerKeys}, Out: out, CreatedAt: time.Unix(1767225600, 0).UTC()}})
	if got != nil || !errors.Is(err, refused) {
		t.Errorf("BuildBundle = %+v, %v; want the refusal", got, err)
	}
	if _, err := os.Lstat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an archive was left: %v", err)
	}
}
