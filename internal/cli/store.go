package cli

import (
	"context"
	"errors"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/postmerge"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

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
