package archives

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// ShowRequest is what git bernstein show asks about: the note on Rev in NotesRef, and where the bundles it names
// are, under BundleDir (the recorded bundles' folder) and on the archives ref of Repo.
type ShowRequest struct {
	Repo      *gitext.Repo
	NotesRef  gitext.RefName
	Rev       string
	BundleDir string
}

// Shown is a commit's note with, for each bundle it names, where a copy is.
type Shown struct {
	Commit  gitext.Hash
	Subject string   // the commit message's first line ("" when the commit cannot be read)
	Other   []string // the note's lines this version does not understand
	Entries []Located
}

// Located is a note entry and where its archive is: the bundles folder's copy (record.LocalCopyOf) and whether
// the archives ref holds it.
type Located struct {
	notes.Entry
	Local record.LocalCopy
	Kept  bool // the archives ref holds the archive with the noted digest
}

// Show reads the note on req.Rev and locates each bundle it names. A commit without a note is an error that
// says how to get shared notes.
func Show(req ShowRequest) (*Shown, error) {
	h, err := revparse.Resolve(req.Repo, req.Rev)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w", req.Rev, err)
	}
	entries, other, ok, err := notes.On(req.Repo, req.NotesRef, h)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("no bundles noted on %s (%s) in %s; get shared notes with 'git bernstein fetch' (see the README)",
			req.Rev, h.String()[:7], req.NotesRef)
	}
	out := &Shown{Commit: h, Other: other, Entries: make([]Located, 0, len(entries))}
	for _, e := range entries {
		l := Located{Entry: e, Local: record.LocalCopyOf(req.BundleDir, e)}
		if l.Kept, err = Has(req.Repo, e.Tracker, e.Ticket, e.BundleSHA256); err != nil {
			return nil, err
		}
		out.Entries = append(out.Entries, l)
	}
	if cm, err := req.Repo.Commit(h); err == nil {
		out.Subject, _, _ = strings.Cut(strings.TrimSpace(cm.Message), "\n")
	}
	return out, nil
}
