// Package postmerge is the post-merge hook's job (git bernstein hook post-merge): record what the merge brought
// in, keep the archives on the archives ref and upload them to the stores, all within one time budget. It
// never fails the merge: every problem comes back in the Result for the hook to print and log, and what the
// budget did not allow is said so that `git bernstein push` or `record` can finish it.
package postmerge

import (
	"context"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/store"
)

// Request is one run of the hook: the recording (Record.Range is ORIG_HEAD..HEAD, Record.Options.Deadline the
// budget's end, read with Record.Now), and the stores to upload to, opened only once the recording is done.
type Request struct {
	Record archives.RecordRequest
	Stores func() ([]store.Store, error)
}

// Result is what the hook did: the recording (archives.Recording) and the upload. StoresErr says why the
// stores could not be opened; UploadLate that the budget ran out before the upload (Stores stores, nothing
// uploaded); Uploads is the upload, nil when there was none (no store, nothing recorded).
type Result struct {
	*archives.Recording
	StoresErr  error
	Stores     int
	UploadLate bool
	Uploads    *store.Uploads
}

// Run records and keeps (archives.Record, kept only within the budget), then uploads what was recorded to every
// store (store.Upload), stopping at the budget's end. The error is the recording's; the Result comes back with
// it too, for its warnings.
func Run(ctx context.Context, req Request) (*Result, error) {
	deadline := req.Record.Options.Deadline
	recording, err := archives.Record(req.Record)
	out := &Result{Recording: recording}
	if err != nil {
		return out, err
	}
	stores, err := req.Stores()
	if err != nil {
		out.StoresErr = err
		return out, nil
	}
	rep := recording.Report
	if len(stores) == 0 || len(rep.Recorded) == 0 {
		return out, nil
	}
	out.Stores = len(stores)
	if req.Record.Now().After(deadline) {
		out.UploadLate = true
		return out, nil
	}
	entries := make([]notes.Entry, 0, len(rep.Recorded))
	for _, r := range rep.Recorded {
		entries = append(entries, r.Entry)
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	out.Uploads = store.Upload(ctx, store.UploadRequest{Repo: req.Record.Options.Repo, BundleDir: req.Record.Options.BundleDir,
		Stores: stores, Entries: entries, Now: req.Record.Now,
		Author: func() gitext.Signature { return record.Identity(req.Record.Config, req.Record.Getenv) }})
	return out, nil
}
