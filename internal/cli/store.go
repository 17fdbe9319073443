package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/share"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// uploaded is what upload did for one store.
type uploaded struct {
	store          string
	archives, adds int
	took           time.Duration
	err            error
}

// uploads is what upload did: per store, and the store records to keep.
type uploads struct {
	stores  []uploaded
	records []archives.Recorded
}

// upload puts each noted archive this clone holds (bundles folder or refs/bernstein/archives, checked against the
// note) into every store, what the store lacks only. It stops at the context's deadline; the first error of a
// store ends that store's upload.
func upload(ctx context.Context, s *session, dir string, stores []store.Store, entries []notes.Entry) uploads {
	var recs []archives.Recorded
	res := make([]uploaded, len(stores))
	for i, st := range stores {
		res[i].store = st.URL()
	}
	for _, e := range entries {
		cp, _, err := archives.Get(s.repo, dir, e)
		if err != nil {
			continue // not held here: nothing to upload; get says where it is missing
		}
		it := store.Item{Tracker: e.Tracker, Ticket: e.Ticket, Bundle: e.Bundle, SHA256: e.BundleSHA256, CreatedAt: e.CreatedAt,
			Archive: cp.Archive, Sidecars: cp.Sidecars}
		// The archives ref does not keep the Sigstore bundle; in a registry it is the referrer cosign's tools read.
		if sb, ok := archives.ReadRecordedSidecar(dir, e, attest.SigstoreSuffix, attest.MaxSigstoreBundle); ok {
			it.Sidecars = append(it.Sidecars, sb)
		}
		records, err := archives.Records(s.repo, e.Tracker, e.Ticket, e.BundleSHA256)
		if err != nil {
			records = nil // a hint only: without it, put reads what it finds to check it
		}
		for i, st := range stores {
			if res[i].err != nil {
				continue
			}
			start := s.env.now()
			it.Known = archives.KnownTo(records, st.URL())
			rc, err := st.Put(ctx, it)
			res[i].took += s.env.now().Sub(start)
			res[i].adds += rc.Added
			res[i].archives++
			res[i].err = err
			if err == nil && len(rc.Versions) > 0 {
				recs = append(recs, archives.Recorded{Tracker: e.Tracker, Ticket: e.Ticket, SHA256: e.BundleSHA256,
					Record: archives.StoreRecord{Store: st.URL(), Objects: rc.Versions}})
			}
		}
	}
	return uploads{stores: res, records: recs}
}

// keepRecords adds the store records of an upload to refs/bernstein/archives; added counts the new ones.
func (s *session) keepRecords(u uploads) (int, error) {
	if len(u.records) == 0 {
		return 0, nil
	}
	return archives.AddStoreRecords(s.repo, record.Identity(s.cfg, s.env.getenv), u.records)
}

// notedEverywhere is every entry of every note on the notes ref, each archive once.
func (s *session) notedEverywhere() ([]notes.Entry, error) {
	all, err := s.repo.Notes(notes.RefFrom(s.cfg))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []notes.Entry
	for _, n := range all {
		text, err := s.repo.ReadBlobMax(n.Blob, share.MaxNote)
		if err != nil {
			return nil, err
		}
		entries, _ := notes.Parse(text)
		for _, e := range entries {
			if !seen[e.BundleSHA256] {
				seen[e.BundleSHA256] = true
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// pushToStores is push's last step: every noted archive held here, to every configured store. kept counts the
// store records it added to refs/bernstein/archives (push then pushes the ref again). A bucket without Object
// Lock is a usage error (exit 2) unless --no-retention.
func (s *session) pushToStores(ctx context.Context, c *ucli.Command, dir string) (kept int, err error) {
	use := writeStores
	if c.Bool("no-retention") {
		use = writeStoresNoRetention
	}
	stores, err := s.stores(c, use)
	if err != nil || len(stores) == 0 {
		return 0, err
	}
	entries, err := s.notedEverywhere()
	if err != nil {
		return 0, err
	}
	failed, unlocked := 0, 0
	up := upload(ctx, s, dir, stores, entries)
	for _, u := range up.stores {
		if u.err != nil {
			failed++
			if errors.Is(u.err, store.ErrNoObjectLock) {
				unlocked++
			}
			fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: %s\n", termtext.Clean(u.err.Error()))
			continue
		}
		fmt.Fprintf(c.Root().Writer, "Uploaded %s to %s (%s checked, %s).\n", plural.Count(u.adds, "file"), termtext.Clean(u.store),
			plural.Count(u.archives, "archive"), u.took.Round(time.Millisecond))
	}
	if kept, err = s.keepRecords(up); err != nil {
		return 0, err
	}
	if unlocked > 0 {
		return kept, usageError("%s without Object Lock: nothing uploaded there; create it with Object Lock, or push --no-retention",
			plural.Count(unlocked, "bucket"))
	}
	if failed > 0 {
		return kept, fmt.Errorf("%s of %s failed; run 'git bernstein push' again", plural.Count(failed, "upload"), plural.Count(len(stores), "store"))
	}
	return kept, nil
}

// hookUpload is the post-merge hook's upload of what it recorded, within what is left of its budget; what does not
// fit or fails is one problem line with the command that finishes it.
func (s *session) hookUpload(ctx context.Context, c *ucli.Command, rep *record.Report, deadline time.Time, problem func(string, ...any)) {
	stores, err := s.stores(c, writeStores)
	if err != nil {
		problem("%v", err)
		return
	}
	if len(stores) == 0 || len(rep.Recorded) == 0 {
		return
	}
	if s.env.now().After(deadline) {
		problem("%s not uploaded to %s: the time budget ran out (bernstein.hookBudget); 'git bernstein push' uploads them",
			plural.Count(len(rep.Recorded), "archive"), plural.Count(len(stores), "store"))
		return
	}
	dir, err := s.bundleDir(c)
	if err != nil {
		problem("%v", err)
		return
	}
	var entries []notes.Entry
	for _, r := range rep.Recorded {
		entries = append(entries, r.Entry)
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	up := upload(ctx, s, dir, stores, entries)
	if _, err := s.keepRecords(up); err != nil {
		problem("store records not kept in %s: %v; 'git bernstein push' keeps them", archives.Ref, err)
	}
	for _, u := range up.stores {
		if u.err != nil {
			why := u.err.Error()
			finish := "'git bernstein push' uploads them"
			switch {
			case errors.Is(u.err, context.DeadlineExceeded):
				why = "the time budget ran out (bernstein.hookBudget)"
			case errors.Is(u.err, store.ErrNoObjectLock):
				finish = "'git bernstein push --no-retention' uploads them unlocked"
			}
			problem("archives not all uploaded to %s: %s; %s", u.store, termtext.Clean(why), finish)
		}
	}
}
