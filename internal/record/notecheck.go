package record

import (
	"fmt"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// NoteCheck is what verify --rev REV holds the archive at archivePath to: its digest and the bundles noted on
// rev. repo gives the repository and its notes ref; it is asked for only once the archive's digest is taken.
// Any problem is the check's Err (verify reports it), never an error of its own.
func NoteCheck(archivePath, rev string, repo func() (*gitext.Repo, gitext.RefName, error)) *verify.NoteCheck {
	n := &verify.NoteCheck{Rev: rev}
	sum, err := FileSHA256(archivePath)
	if err != nil {
		n.Err = err
		return n
	}
	n.ArchiveSHA256 = sum
	r, ref, err := repo()
	if err != nil {
		n.Err = fmt.Errorf("--rev needs a repository: %v", err)
		return n
	}
	h, err := revparse.Resolve(r, rev)
	if err != nil {
		n.Err = fmt.Errorf("cannot resolve %s: %v", rev, err)
		return n
	}
	entries, _, ok, err := notes.On(r, ref, h)
	if err != nil {
		n.Err = err
		return n
	}
	if !ok {
		n.Err = fmt.Errorf("%s (%s) has no note in %s; get shared notes with 'git bernstein fetch' (see the README)", rev, h.String()[:7], ref)
		return n
	}
	for _, e := range entries {
		n.Noted = append(n.Noted, verify.NotedBundle{Tracker: e.Tracker, Ticket: e.Ticket, Bundle: e.Bundle, SHA256: e.BundleSHA256})
	}
	return n
}
