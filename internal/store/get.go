package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// FindCopy is archives.Get, then each store in turn: the first copy with the noted digest wins. A store that
// fails (unreachable, or sends something refused) is said in skipped and the next one tried.
func FindCopy(ctx context.Context, r *gitext.Repo, dir string, stores []Store, e notes.Entry) (*archives.Copy, []string, error) {
	cp, skipped, err := archives.Get(r, dir, e)
	if err == nil || !errors.Is(err, archives.ErrNotHeld) || len(stores) == 0 {
		return cp, skipped, err
	}
	records, err := archives.Records(r, e.Tracker, e.Ticket, e.BundleSHA256)
	if err != nil {
		return nil, skipped, err
	}
	for _, st := range stores {
		h, passed, ok, serr := st.Get(ctx, e.Tracker, e.Ticket, e.BundleSHA256, archives.KnownTo(records, st.URL()))
		for _, p := range passed {
			skipped = append(skipped, termtext.Clean(p))
		}
		if serr != nil {
			skipped = append(skipped, termtext.Clean(serr.Error()))
			continue
		}
		if ok {
			return &archives.Copy{Entry: e, From: st.URL(), Archive: h.Archive, Sidecars: h.Sidecars}, skipped, nil
		}
	}
	var urls []string
	for _, st := range stores {
		urls = append(urls, st.URL())
	}
	return nil, skipped, fmt.Errorf("%w for %s %s (%s, sha256 %s) in the bundles folder, %s or %s", archives.ErrNotHeld,
		e.Tracker, e.Ticket, e.Bundle, e.BundleSHA256, archives.Ref, strings.Join(urls, ", "))
}

// GetRequest is git bernstein get: the archives Arg names (notes.Named: a revision's note, else a ticket's
// entries) in NotesRef, found in BundleDir, on the archives ref or in the stores (FindCopy), written under Out.
type GetRequest struct {
	Repo      *gitext.Repo
	NotesRef  gitext.RefName
	Arg       string
	BundleDir string
	Out       string
	// Stores opens the configured stores; it is called once the entries are known, so that an Arg that names
	// nothing is said before a store's problem.
	Stores func() ([]Store, error)
}

// Got is one entry's outcome: the stores passed over (Skipped), and either the copy found and the files
// written, or Missing (archives.ErrNotHeld: no copy with the noted digest). With neither, Get's error follows.
type Got struct {
	Entry   notes.Entry
	Skipped []string
	Copy    *archives.Copy
	Written []archives.Written
	Missing error
}

// Get writes each archive req.Arg names, calling each with every entry's outcome, in note order, as it comes;
// what says what Arg named, n how many entries. A missing archive does not stop the others; any other error
// does.
func Get(ctx context.Context, req GetRequest, each func(Got)) (what string, n int, err error) {
	what, entries, err := notes.Named(req.Repo, req.NotesRef, req.Arg)
	if err != nil {
		return "", 0, err
	}
	stores, err := req.Stores()
	if err != nil {
		return what, len(entries), err
	}
	for _, e := range entries {
		cp, skipped, err := FindCopy(ctx, req.Repo, req.BundleDir, stores, e)
		if errors.Is(err, archives.ErrNotHeld) {
			each(Got{Entry: e, Skipped: skipped, Missing: err})
			continue
		}
		if err != nil {
			each(Got{Entry: e, Skipped: skipped})
			return what, len(entries), err
		}
		written, err := archives.Write(req.Out, cp)
		if err != nil {
			each(Got{Entry: e, Skipped: skipped})
			return what, len(entries), err
		}
		each(Got{Entry: e, Skipped: skipped, Copy: cp, Written: written})
	}
	return what, len(entries), nil
}
