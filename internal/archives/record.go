package archives

import (
	"time"

	"github.com/git-bernstein/git-bernstein/internal/record"
)

// RecordRequest is git bernstein record, and the post-merge hook's recording: record.Run's request, and the
// time by which the bundles recorded are kept on the archives ref (KeepBy, read with Now; zero: whenever the
// recording ends). Past it the hook leaves them to push, so as not to hold up the merge.
type RecordRequest struct {
	record.Request
	KeepBy time.Time
	Now    func() time.Time
}

// Recording is what Record did: record.Run's report and warnings, and the bundles kept on the archives ref
// (Kept counts the new files); KeepErr says why they were not, KeepLate that KeepBy had passed.
type Recording struct {
	Report   *record.Report
	Warnings []string
	Kept     int
	KeepErr  error
	KeepLate bool
}

// Record records (record.Run) and keeps what it recorded on the archives ref (KeepRecorded), by the notes'
// author, so that the bundles travel with their notes (README, "Sharing evidence"). The Recording comes back
// with Run's error too, for its warnings.
func Record(req RecordRequest) (*Recording, error) {
	rep, warnings, err := record.Run(req.Request)
	out := &Recording{Report: rep, Warnings: warnings}
	if err != nil {
		return out, err
	}
	if !req.KeepBy.IsZero() && len(rep.Recorded) > 0 && req.Now().After(req.KeepBy) {
		out.KeepLate = true
		return out, nil
	}
	out.Kept, out.KeepErr = KeepRecorded(req.Options.Repo, record.Identity(req.Config, req.Getenv), rep)
	return out, nil
}
