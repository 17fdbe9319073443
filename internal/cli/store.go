package cli

import (
	"context"
	"errors"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// upload is store.Upload of entries from dir to stores, the store records kept by the notes' author.
func upload(ctx context.Context, s *session, dir string, stores []store.Store, entries []notes.Entry) *store.Uploads {
	return store.Upload(ctx, store.UploadRequest{Repo: s.repo, BundleDir: dir, Stores: stores, Entries: entries,
		Author: func() gitext.Signature { return record.Identity(s.cfg, s.env.getenv) }, Now: s.env.now})
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
