package archives

import (
	"context"
	"fmt"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/prcapture"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// bundleOf is what the archives ref keeps of a bundle just written and the note entry that names it.
func bundleOf(res *bundle.Result, e notes.Entry) Bundle {
	return Bundle{Tracker: e.Tracker, Ticket: e.Ticket, SHA256: e.BundleSHA256, Archive: res.Out,
		Sidecars: map[string]string{JWS: res.Signature, SSHSig: res.SSHSig, Attestation: res.Attestation}}
}

// KeepRecorded keeps the bundles rep recorded on the archives ref (Store), so that they travel with their
// notes (README, "Sharing evidence"); added counts the new ones.
func KeepRecorded(r *gitext.Repo, sig gitext.Signature, rep *record.Report) (added int, err error) {
	var keep []Bundle
	for _, rec := range rep.Recorded {
		keep = append(keep, bundleOf(rec.Result, rec.Entry))
	}
	if len(keep) == 0 {
		return 0, nil
	}
	return Store(r, sig, keep)
}

// NoteRequest is bundle --note REV: the bundle Result (signed by Kid, "" unsigned) is noted on Rev in NotesRef
// as record notes its bundles, by Author, and kept on the archives ref.
type NoteRequest struct {
	Repo     *gitext.Repo
	NotesRef gitext.RefName
	Rev      string
	Author   gitext.Signature
	Result   *bundle.Result
	Kid      string
}

// Noted is the note NoteBundle added: on Commit, the line Entry.
type Noted struct {
	Commit gitext.Hash
	Entry  notes.Entry
}

// NoteBundle notes req.Result on req.Rev and keeps it on the archives ref. The note names the archive's file
// name only; show looks for it in the bundles folder, and verify --rev checks any copy against the noted digest.
// When the note was added but the archive not kept, both the Noted and the error are returned.
func NoteBundle(req NoteRequest) (*Noted, error) {
	h, err := revparse.Resolve(req.Repo, req.Rev)
	if err != nil {
		return nil, fmt.Errorf("--note %s: cannot resolve it: %w (the bundle was written but not noted)", req.Rev, err)
	}
	entry, err := record.EntryFor(req.Result, req.Kid)
	if err != nil {
		return nil, err
	}
	if _, err := notes.Add(req.Repo, req.NotesRef, h, req.Author, entry); err != nil {
		return nil, fmt.Errorf("--note %s: %w (the bundle was written but not noted)", req.Rev, err)
	}
	noted := &Noted{Commit: h, Entry: entry}
	// The archive travels with its note (README, "Sharing evidence").
	if _, err := Store(req.Repo, req.Author, []Bundle{bundleOf(req.Result, entry)}); err != nil {
		return noted, fmt.Errorf("--note %s: noted, but not kept in %s: %w", req.Rev, Ref, err)
	}
	return noted, nil
}

// BundleRequest is git bernstein bundle: Build's options; PRs, when set, how the bundle captures its pull
// requests (Build.PRs is made from it: prcapture.Capture with the commits found), and PRErr, when set, why it
// cannot (a flag that contradicts another), returned when the bundle asks for them; with Note (bundle --note
// REV), where the bundle is noted and by whom (Note's Result and Kid are the build's).
type BundleRequest struct {
	Build bundle.Options
	PRs   *prcapture.Request
	PRErr error
	Note  *NoteRequest
}

// Bundled is the bundle written and, with a note asked for, the note added (nil when it was not).
type Bundled struct {
	*bundle.Result
	Noted *Noted
}

// BuildBundle writes the bundle (bundle.Build) and, when asked, notes it and keeps it (NoteBundle). A bundle
// written but not noted, or noted but not kept, comes back with the error, so that the caller can say what
// was done.
func BuildBundle(ctx context.Context, req BundleRequest) (*Bundled, error) {
	req.Build.PRs = prFunc(ctx, req.PRs, req.PRErr)
	res, err := bundle.Build(req.Build)
	if err != nil {
		return nil, err
	}
	out := &Bundled{Result: res}
	if req.Note == nil {
		return out, nil
	}
	note := *req.Note
	note.Result, note.Kid = res, req.Build.SignKid
	out.Noted, err = NoteBundle(note)
	return out, err
}

// prFunc is how a bundle captures its pull requests: tmpl with the commits found (prcapture.Capture), or err;
// nil when neither is given.
func prFunc(ctx context.Context, tmpl *prcapture.Request, err error) bundle.PRFunc {
	switch {
	case err != nil:
		return func(*discover.Commits) (*bundle.PRSet, error) { return nil, err }
	case tmpl == nil:
		return nil
	}
	return func(commits *discover.Commits) (*bundle.PRSet, error) {
		req := *tmpl
		req.Commits = commits
		return prcapture.Capture(ctx, req)
	}
}

// KeepNoted adds to the archives ref every archive noted on notesRef that the ref lacks and the bundles folder
// dir holds with the noted digest, with the sidecars beside it: what a hook that ran out of time, or a version
// before the ref, left only in the folder (push's first step). sig gives the author of the commit, asked for
// only when there is something to keep. added counts the files added.
func KeepNoted(r *gitext.Repo, notesRef gitext.RefName, dir string, sig func() gitext.Signature) (int, error) {
	entries, err := notes.Entries(r, notesRef)
	if err != nil {
		return 0, err
	}
	var keep []Bundle
	for _, e := range entries {
		if has, err := Has(r, e.Tracker, e.Ticket, e.BundleSHA256); err != nil || has {
			if err != nil {
				return 0, err
			}
			continue
		}
		b := Bundle{Tracker: e.Tracker, Ticket: e.Ticket, SHA256: e.BundleSHA256,
			Archive: record.RecordedPath(dir, e.Tracker, e.Ticket, e.Bundle), Sidecars: map[string]string{}}
		// Not here, not a file to read, or not the noted archive (changed since), or a name that is no
		// archive's (the copy found is under another path): nothing to keep.
		if lc := record.LocalCopyOf(dir, e); lc.State != record.LocalMatch || lc.Path != b.Archive {
			continue
		}
		for _, kind := range Kinds {
			if f, _, err := record.OpenRecorded(dir, e.Tracker, e.Ticket, e.Bundle+kind); err == nil {
				f.Close()
				b.Sidecars[kind] = b.Archive + kind
			}
		}
		keep = append(keep, b)
	}
	if len(keep) == 0 {
		return 0, nil
	}
	return Store(r, sig(), keep)
}
