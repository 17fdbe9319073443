package gitverify

import (
	"context"
	"os"
	"path/filepath"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// NotedRequest is `verify --rev REV` with no ARCHIVE. Request.Rev is REV (resolved by the caller: one that
// does not resolve is a usage error), Request.Notes gives the repository and notes ref (asked for once,
// first), and Request.Files the --card files; each archive found is verified as Verify verifies an ARCHIVE
// given with --rev.
type NotedRequest struct {
	Request
	BundleDir string // the bundles folder, looked in first
	// Stores opens the stores looked in last (bernstein.store), once the noted entries are read; nil: none.
	Stores func() ([]store.Store, error)
	// Each, when set, is given each NotedReport as soon as it is made (the one Noted fails on too), so that a
	// caller can show it while the next copy is fetched.
	Each func(NotedReport)
}

// NotedReport is one archive noted on REV.
type NotedReport struct {
	Entry notes.Entry
	// Found says a copy with the noted digest was found; From says where (archives.FromBundleDir,
	// archives.FromRef, a store). Name is the bundle's file name as the bundles folder would name it.
	Found      bool
	From, Name string
	// Skipped are the copies passed over (another digest, a store that failed), to warn about.
	Skipped []string
	// Report is the verification: of the copy found, or an unusable archive check when none was. nil only in
	// the last NotedReport when Noted failed on it.
	Report *verify.Report
}

// Noted verifies each archive noted on REV, found by its digest as `get` finds it (store.FindCopy: the
// bundles folder, then refs/bernstein/archives, then the stores) and written with its sidecars to a temporary
// folder (removed after), in the order of the note. An archive held nowhere gets an unusable report (exit 2)
// and the next is verified. An error (the notes unreadable, a store that cannot be opened, a copy that cannot
// be written) stops it: the reports so far come back with it.
func Noted(ctx context.Context, r NotedRequest) ([]NotedReport, error) {
	repo, ref, err := r.notes()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "git-bernstein-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	stores := r.Stores
	if stores == nil {
		stores = func() ([]store.Store, error) { return nil, nil }
	}
	// Every copy is held to the same notes, and to the one repository --repo names.
	each := r.Request
	each.Notes = func() (*gitext.Repo, gitext.RefName, error) { return repo, ref, nil }
	var out []NotedReport
	// The copies are found and written as `get` finds and writes them (store.Get), into tmp.
	_, _, err = store.Get(ctx, store.GetRequest{Repo: repo, NotesRef: ref, Arg: r.Rev, BundleDir: r.BundleDir,
		Out: tmp, Stores: stores}, func(g store.Got) {
		nr := NotedReport{Entry: g.Entry, Skipped: g.Skipped}
		switch {
		case g.Missing != nil:
			nr.Report = verify.Unusable(verify.CheckArchive, termtext.Clean(g.Missing.Error()))
		case g.Copy != nil:
			nr.Found, nr.From, nr.Name = true, g.Copy.From, record.PathPart(filepath.Base(g.Entry.Bundle))
			each.Files.Archive, each.Files.Signature = g.Written[0].Path, ""
			nr.Report = Verify(each)
		} // neither: Get fails on this entry, and nr goes back with its error
		if r.Each != nil {
			r.Each(nr)
		}
		out = append(out, nr)
	})
	return out, err
}
