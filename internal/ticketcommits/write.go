package ticketcommits

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/jsonout"
	"github.com/git-bernstein/git-bernstein/internal/landing"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// Run lists opts.Ticket's commits in repo (discover.List) and writes them (Write): the commits.json document
// when asJSON, else the listing, whose lines group a change's copies by patch id but show no id, so only the
// ids that can group are made (discover.Options.PatchIDsToGroup). listed, when not nil, is called once the
// listing is made and before anything is written (it clears a progress meter); an error after it is one of
// writing. A listing that repo's readers could not make whole (gitext.Repo.Unreadable: what only go-git's
// storage reads, a key the configuration cache does not hold) is an error before listed.
func Run(repo *gitext.Repo, opts discover.Options, asJSON bool, out, errOut io.Writer, listed func()) error {
	opts.PatchIDsToGroup = !asJSON
	res, err := discover.List(repo, opts, !asJSON)
	if unread := repo.Unreadable(); unread != nil {
		// The listing may lack what go-git's storage would have read (the front opens repositories without it):
		// an error before listed, so that the front hands the run to git-bernstein-full, which reads it all.
		return unread
	}
	if listed != nil {
		listed()
	}
	if err != nil {
		return err
	}
	return Write(out, errOut, res, opts, asJSON)
}

// Write writes what `commits` prints for res, the listing of opts.Ticket: its warnings on errOut, one
// "warning: …" line each, then the commits.json document (asJSON) or the listing (one block a change) on out.
// When no commit is tied the listing is empty and one line on errOut says so.
func Write(out, errOut io.Writer, res discover.Listing, opts discover.Options, asJSON bool) error {
	for _, w := range res.Warnings {
		fmt.Fprintf(errOut, "warning: %s\n", w)
	}
	if asJSON {
		return jsonout.Write(out, res.Commits)
	}
	if len(res.Details) == 0 {
		fmt.Fprintf(errOut, "no commits tied to %s (sources: %s)\n", opts.Ticket.ID, strings.Join(opts.Sources, ","))
		return nil
	}
	writeChanges(out, res.Details, res.Changes, res.Base)
	return nil
}

// writeChanges writes one block per change: its subject, then an indented line per commit (short sha, committer
// date, the branches it is on, [the first tags that contain it], (why it matched)), backports after the original.
// Branches and tags are shortened for reading (package landing: the base branch and release lines first, the
// earliest release of each line, "and N more"); --json has them all. changes group the details
// (discover.Changes); base is the base branch's ref, or "".
func writeChanges(out io.Writer, details []discover.CommitDetail, changes []discover.Change, base string) {
	// One write for the lot, not a system call a line, and each part written as it is rather than joined into
	// a line first: a commit on hundreds of branches prints a long line, and a ticket can have thousands. Every
	// part from the repository goes through termtext.Clean (between parts are only our own separators, so
	// cleaning each part is cleaning the line).
	w := bufio.NewWriter(out)
	defer w.Flush()
	clean := func(s string) { w.WriteString(termtext.Clean(s)) }
	list := func(items []string) {
		for k, s := range items {
			if k > 0 {
				w.WriteString(", ")
			}
			clean(s)
		}
	}
	short := func(l landing.List) {
		list(l.Shown)
		if l.More > 0 {
			fmt.Fprintf(w, " and %d more", l.More)
		}
	}
	for _, ch := range changes {
		first := details[ch.Commits[0]]
		clean(first.Subject)
		w.WriteByte('\n')
		for _, i := range ch.Commits {
			d := details[i]
			date, _, _ := strings.Cut(d.Committer.Date, "T")
			w.WriteString("  ")
			clean(d.SHA[:7])
			w.WriteByte(' ')
			clean(date)
			if d.LandedOn != nil && len(d.LandedOn.Branches) > 0 {
				w.WriteString(" on ")
				short(landing.Branches(d.LandedOn.Branches, base))
			} else {
				w.WriteString(" on no branch")
			}
			if d.LandedOn != nil && len(d.LandedOn.Tags) > 0 {
				w.WriteString(" [")
				short(landing.Tags(d.LandedOn.Tags))
				w.WriteString("]")
			}
			w.WriteString(" (")
			list(d.MatchedBy)
			w.WriteString(")")
			if d.Subject != first.Subject {
				w.WriteByte(' ')
				clean(d.Subject)
			}
			for _, from := range d.CherryPickedFrom {
				w.WriteString(" cherry-picked from ")
				clean(from[:min(7, len(from))])
				// Ids are made only where they can group (PatchIDsToGroup): one that was not made differs.
				if i != ch.Commits[0] && (d.PatchID == nil || first.PatchID == nil || *d.PatchID != *first.PatchID) {
					w.WriteString(", another patch")
				}
			}
			w.WriteByte('\n')
		}
	}
}
