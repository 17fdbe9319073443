package archives

import (
	"context"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/prcapture"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// RecordRequest is git bernstein record, and the post-merge hook's recording: record.Run's request; PRs, when
// set, how each ticket's bundle captures its pull requests (Options.PRs is made from it: prcapture.Capture
// with the ticket and its commits), PRErr, when set, why they cannot be (each ticket then fails with it). The
// bundles recorded are kept on the archives ref by the recording's deadline (Options.Deadline, read with Now;
// zero: whenever the recording ends): past it the hook leaves them to push, so as not to hold up the merge.
type RecordRequest struct {
	record.Request
	PRs   *prcapture.Request
	PRErr error
	Now   func() time.Time
}

// Recording is what Record did: record.Run's report and warnings, the tickets whose pull requests GitHub did
// not give in full (Partial: offline, no answer in time, rate limit, no time left), and the bundles kept on the
// archives ref (Kept counts the new files); KeepErr says why they were not, KeepLate that the deadline had passed.
type Recording struct {
	Report   *record.Report
	Warnings []string
	Partial  []string
	Kept     int
	KeepErr  error
	KeepLate bool
}

// Record records (record.Run) and keeps what it recorded on the archives ref (KeepRecorded), by the notes'
// author, so that the bundles travel with their notes (README, "Sharing evidence"). The Recording comes back
// with Run's error too, for its warnings.
func Record(req RecordRequest) (*Recording, error) {
	out := &Recording{}
	if req.PRs != nil || req.PRErr != nil {
		req.Options.PRs = func(find discover.Options) bundle.PRFunc {
			tmpl := req.PRs
			if tmpl != nil {
				t := *tmpl
				t.Ticket = find.Ticket
				t.Stopped = func() { out.Partial = append(out.Partial, find.Ticket.ID) }
				tmpl = &t
			}
			return prFunc(context.Background(), tmpl, req.PRErr)
		}
	}
	rep, warnings, err := record.Run(req.Request)
	out.Report, out.Warnings = rep, warnings
	if err != nil {
		return out, err
	}
	if by := req.Options.Deadline; !by.IsZero() && len(rep.Recorded) > 0 && req.Now().After(by) {
		out.KeepLate = true
		return out, nil
	}
	out.Kept, out.KeepErr = KeepRecorded(req.Options.Repo, record.Identity(req.Config, req.Getenv), rep)
	return out, nil
}
