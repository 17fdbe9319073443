package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/postmerge"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/share"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// upload is store.Upload of entries from dir to stores, the store records kept by the notes' author.
func upload(ctx context.Context, s *session, dir string, stores []store.Store, entries []notes.Entry) *store.Uploads {
	return store.Upload(ctx, store.UploadRequest{Repo: s.repo, BundleDir: dir, Stores: stores, Entries: entries,
		Author: func() gitext.Signature { return record.Identity(s.cfg, s.env.getenv) }, Now: s.env.now})
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
	for _, u := range up.Stores {
		if u.Err != nil {
			failed++
			if errors.Is(u.Err, store.ErrNoObjectLock) {
				unlocked++
			}
			fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: %s\n", termtext.Clean(u.Err.Error()))
			continue
		}
		fmt.Fprintf(c.Root().Writer, "Uploaded %s to %s (%s checked, %s).\n", plural.Count(u.Adds, "file"), termtext.Clean(u.Store),
			plural.Count(u.Archives, "archive"), u.Took.Round(time.Millisecond))
	}
	if up.KeepErr != nil {
		return 0, up.KeepErr
	}
	kept = up.Kept
	if unlocked > 0 {
		return kept, usageError("%s without Object Lock: nothing uploaded there; create it with Object Lock, or push --no-retention",
			plural.Count(unlocked, "bucket"))
	}
	if failed > 0 {
		return kept, fmt.Errorf("%s of %s failed; run 'git bernstein push' again", plural.Count(failed, "upload"), plural.Count(len(stores), "store"))
	}
	return kept, nil
}

// hookUploaded says what of the post-merge hook's upload (postmerge.Run) went wrong: each problem is one line
// with the command that finishes it.
func hookUploaded(res *postmerge.Result, problem func(string, ...any)) {
	switch {
	case res.StoresErr != nil:
		problem("%v", res.StoresErr)
		return
	case res.UploadLate:
		problem("%s not uploaded to %s: the time budget ran out (bernstein.hookBudget); 'git bernstein push' uploads them",
			plural.Count(len(res.Report.Recorded), "archive"), plural.Count(res.Stores, "store"))
		return
	case res.Uploads == nil:
		return
	}
	up := res.Uploads
	if up.KeepErr != nil {
		problem("store records not kept in %s: %v; 'git bernstein push' keeps them", archives.Ref, up.KeepErr)
	}
	for _, u := range up.Stores {
		if u.Err != nil {
			why := u.Err.Error()
			finish := "'git bernstein push' uploads them"
			switch {
			case errors.Is(u.Err, context.DeadlineExceeded):
				why = "the time budget ran out (bernstein.hookBudget)"
			case errors.Is(u.Err, store.ErrNoObjectLock):
				finish = "'git bernstein push --no-retention' uploads them unlocked"
			}
			problem("archives not all uploaded to %s: %s; %s", u.Store, termtext.Clean(why), finish)
		}
	}
}
