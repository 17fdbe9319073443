package store

import (
	"context"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
)

// UploadRequest is push's and the hook's upload: each archive Entries note that this clone holds (BundleDir or
// the archives ref of Repo, checked against the note) into every one of Stores. The store records the stores
// answer with are kept on the archives ref by Author (asked for when they are kept); Now times each store.
type UploadRequest struct {
	Repo      *gitext.Repo
	BundleDir string
	Stores    []Store
	Entries   []notes.Entry
	Author    func() gitext.Signature
	Now       func() time.Time
}

// Uploaded is what Upload did for one store: archives checked, files added, the time it took, and the error
// that ended its upload.
type Uploaded struct {
	Store          string
	Archives, Adds int
	Took           time.Duration
	Err            error
}

// Uploads is what Upload did: per store, in Stores' order, and the store records kept on the archives ref
// (Kept, the new ones; KeepErr when they could not be).
type Uploads struct {
	Stores  []Uploaded
	Kept    int
	KeepErr error
}

// Upload puts each noted archive this clone holds into every store, what the store lacks only, then keeps the
// stores' records on the archives ref. It stops at the context's deadline; the first error of a store ends that
// store's upload.
func Upload(ctx context.Context, req UploadRequest) *Uploads {
	var recs []archives.Recorded
	res := make([]Uploaded, len(req.Stores))
	for i, st := range req.Stores {
		res[i].Store = st.URL()
	}
	for _, e := range req.Entries {
		cp, _, err := archives.Get(req.Repo, req.BundleDir, e)
		if err != nil {
			continue // not held here: nothing to upload; get says where it is missing
		}
		it := Item{Tracker: e.Tracker, Ticket: e.Ticket, Bundle: e.Bundle, SHA256: e.BundleSHA256, CreatedAt: e.CreatedAt,
			Archive: cp.Archive, Sidecars: cp.Sidecars}
		// The archives ref does not keep the Sigstore bundle; in a registry it is the referrer cosign's tools read.
		if sb, ok := archives.ReadRecordedSidecar(req.BundleDir, e, attest.SigstoreSuffix, attest.MaxSigstoreBundle); ok {
			it.Sidecars = append(it.Sidecars, sb)
		}
		records, err := archives.Records(req.Repo, e.Tracker, e.Ticket, e.BundleSHA256)
		if err != nil {
			records = nil // a hint only: without it, put reads what it finds to check it
		}
		for i, st := range req.Stores {
			if res[i].Err != nil {
				continue
			}
			start := req.Now()
			it.Known = archives.KnownTo(records, st.URL())
			rc, err := st.Put(ctx, it)
			res[i].Took += req.Now().Sub(start)
			res[i].Adds += rc.Added
			res[i].Archives++
			res[i].Err = err
			if err == nil && len(rc.Versions) > 0 {
				recs = append(recs, archives.Recorded{Tracker: e.Tracker, Ticket: e.Ticket, SHA256: e.BundleSHA256,
					Record: archives.StoreRecord{Store: st.URL(), Objects: rc.Versions}})
			}
		}
	}
	out := &Uploads{Stores: res}
	if len(recs) > 0 {
		out.Kept, out.KeepErr = archives.AddStoreRecords(req.Repo, req.Author(), recs)
	}
	return out
}
