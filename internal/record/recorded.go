package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-bernstein/git-bernstein/internal/nofollow"
	"github.com/git-bernstein/git-bernstein/internal/notes"
)

// RecordedPath is where Record puts the archive name of a ticket's bundle: <bundleDir>/<tracker>/<ticket>/<name>,
// the tracker and ticket made safe as folder names (PathPart).
func RecordedPath(bundleDir, tracker, ticketID, name string) string {
	return filepath.Join(bundleDir, PathPart(tracker), PathPart(ticketID), name)
}

// OpenRecorded opens the recorded archive a note names, for reading. The note is as hostile as any ref: name
// must be a plain file name as Record writes them (no folder, nothing PathPart would change), and the archive is
// opened beneath bundleDir without following a symlink on the way, without waiting on a FIFO, and only as a
// regular file with one name (internal/nofollow). path is where it was looked for, for messages; a missing
// folder or archive is an error wrapping fs.ErrNotExist.
func OpenRecorded(bundleDir, tracker, ticketID, name string) (f *os.File, path string, err error) {
	path = RecordedPath(bundleDir, tracker, ticketID, filepath.Base(name))
	if name == "" || name != filepath.Base(name) || PathPart(name) != name {
		return nil, path, fmt.Errorf("the note names bundle %q, which is not an archive's file name; the note was not written by record", name)
	}
	dir, err := nofollow.OpenDir(bundleDir)
	if err != nil {
		return nil, path, err
	}
	defer dir.Close()
	f, _, err = dir.Open(PathPart(tracker) + "/" + PathPart(ticketID) + "/" + name)
	return f, path, err
}

// Local copy states: what the bundles folder holds for a noted archive (LocalCopyOf).
const (
	LocalMatch   = "match"   // the archive with the noted digest
	LocalDiffers = "differs" // an archive of that name with another digest: not the bundle that was noted
	LocalMissing = "missing" // none
	LocalRefused = "refused" // not read: a symlink on the way, a FIFO, a file with two names, …
)

// LocalCopy is what the bundles folder holds for one noted archive.
type LocalCopy struct {
	Path  string // where it is looked for (RecordedPath)
	State string // LocalMatch, LocalDiffers, LocalMissing or LocalRefused
	Why   string // why it was refused
}

// LocalCopyOf finds the recorded archive e names under bundleDir, opened as OpenRecorded opens it, and holds it
// to the noted digest.
func LocalCopyOf(bundleDir string, e notes.Entry) LocalCopy {
	name := PathPart(filepath.Base(e.Bundle))
	lc := LocalCopy{Path: RecordedPath(bundleDir, e.Tracker, e.Ticket, name)}
	f, path, err := OpenRecorded(bundleDir, e.Tracker, e.Ticket, name)
	var sum string
	if err == nil {
		sum, err = ReaderSHA256(f, path)
		f.Close()
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		lc.State = LocalMissing
	case err != nil:
		lc.State, lc.Why = LocalRefused, err.Error()
	case sum == e.BundleSHA256:
		lc.State = LocalMatch
	default:
		lc.State = LocalDiffers
	}
	return lc
}
