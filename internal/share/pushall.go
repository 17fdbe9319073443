package share

import (
	"context"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/store"
)

// PushRequest is `push`: Options say where and as whom (Options.Author is the merges' author).
type PushRequest struct {
	Options
	BundleDir string // the bundles folder: archives noted but only kept there are kept on the ref first
	// Identity is the author of the commits that keep archives and store records on the archives ref,
	// asked for when one is made.
	Identity func() gitext.Signature
	// Stores opens the stores to upload to (bernstein.store), once the refs are pushed; nil, or none: no
	// upload.
	Stores func() ([]store.Store, error)
	Now    func() time.Time // the run's clock, for the push's duration and the stores' retention
	// Done, when set, is told of each step as it ends, with the report so far, so that a caller can say what
	// was done while the rest (the network) runs.
	Done func(PushStep, *PushReport)
}

// PushStep is a step of PushAll that has ended.
type PushStep int

const (
	StepKept     PushStep = iota // PushReport.Kept is set
	StepPushed                   // Pushed and Took are set
	StepUploaded                 // Uploads is set (only when there are stores)
)

// PushReport is what PushAll did, step by step; a step not reached is zero (nil).
type PushReport struct {
	Kept   int           // files added to the archives ref from the bundles folder before the push
	Pushed *Pushed       // the push of the notes and archives refs
	Took   time.Duration // from the start to the end of that push
	// Uploads is the upload to the stores (nil: no store, or not reached); its Kept store records were pushed
	// again when Repushed.
	Uploads  *store.Uploads
	Repushed bool
}

// PushAll is push: it keeps on the archives ref what the bundles folder alone holds (archives.KeepNoted),
// pushes the notes and archives refs (Push), uploads every noted archive held here to each store that lacks
// it (store.Upload, the notes read again after the push's merge), and, when the stores gave records (the
// version of each file in an S3 bucket), pushes the archives ref again so that they travel with it. The first
// error stops it and comes back with what was done; a store that failed is not an error here but its
// Uploaded's Err (the others are still uploaded to), nor is a record that could not be kept
// (Uploads.KeepErr).
func PushAll(ctx context.Context, r PushRequest) (*PushReport, error) {
	rep := &PushReport{}
	done := func(s PushStep) {
		if r.Done != nil {
			r.Done(s, rep)
		}
	}
	start := r.Now()
	kept, err := archives.KeepNoted(r.Repo, r.NotesRef, r.BundleDir, r.Identity)
	if err != nil {
		return rep, err
	}
	rep.Kept = kept
	done(StepKept)
	p, err := Push(r.Options)
	if err != nil {
		return rep, err
	}
	rep.Pushed, rep.Took = p, r.Now().Sub(start)
	done(StepPushed)
	if r.Stores == nil {
		return rep, nil
	}
	stores, err := r.Stores()
	if err != nil || len(stores) == 0 {
		return rep, err
	}
	entries, err := notes.Distinct(r.Repo, r.NotesRef)
	if err != nil {
		return rep, err
	}
	rep.Uploads = store.Upload(ctx, store.UploadRequest{Repo: r.Repo, BundleDir: r.BundleDir, Stores: stores,
		Entries: entries, Author: r.Identity, Now: r.Now})
	done(StepUploaded)
	if rep.Uploads.KeepErr == nil && rep.Uploads.Kept > 0 {
		// The versions the stores gave are records in refs/bernstein/archives: they travel with it.
		if _, err := Push(r.Options); err != nil {
			return rep, err
		}
		rep.Repushed = true
	}
	return rep, nil
}
