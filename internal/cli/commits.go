package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/landing"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

func commitsCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "commits",
		Usage:     "list every commit tied to a ticket, oldest first, with why each matched",
		ArgsUsage: "TICKET",
		Description: `A commit is tied to TICKET when (sources chosen with --match):
   trailer  a trailer of its message (git's rules) with a configured key names the ticket (Refs: ENG-7, ENG-42)
   branch   it is on a branch that names the ticket and not on the base branch
            (bernstein.baseBranch, else origin/HEAD's target, else main, else master)
   merge    it is a merge whose message names a ticket branch, or a commit that merge brought in
   message  its message names the ticket anywhere
"Names" means the id as a whole token, case-insensitively: ENG-42 never matches ENG-420 or XENG-42.
With --tracker github a number (123 or #123) is named by #123, owner/repo#123 and URLs ending in /123.
History is every commit reachable from HEAD, branches, remote-tracking branches and tags.

Commits are grouped by change: a block per change, its subject once, then each commit of it (the original,
then its backports: the same patch id, or a "(cherry picked from commit X)" line naming it) with the branches
it is on and, in brackets, the first tags that contain it.

--json prints {"tracker","ticket_id","commits":[sha…],"details":[{"sha","parents","author","committer",
"subject","matched_by","patch_id","cherry_picked_from","landed_on":{"branches","tags","first_tags_by_branch"}}],
"discovery":{"rules","sources","trailer_keys","trailer_separators","trailer_configured","github_repo",
"base_branch","diff_settings","tips","shallow"}}, the document bundles carry as git/commits.json ("discovery"
records how the commits were found, so that 'verify --repo' can find them again in a clone).`,
		Flags: append(matchFlags(),
			&ucli.BoolFlag{Name: "json", Usage: "print the commits.json document instead of one line a commit"},
		),
		Action: runCommits,
	}
}

func runCommits(_ context.Context, c *ucli.Command) error {
	id, err := oneArg(c, "TICKET")
	if err != nil {
		return err
	}
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	s.env.smallHeap()
	opts, err := s.findOptions(c, "", id)
	if err != nil {
		return err
	}
	opts.FullWalk = s.env.longHeap
	// The lines printed group a change's copies by patch id but show no id: only ids that can group are made.
	lines := !c.Bool("json")
	opts.PatchIDsToGroup = lines
	done := s.showProgress(c)
	res, err := discover.List(s.repo, opts, lines)
	done()
	if err != nil {
		return err
	}
	warn(c, res.Warnings)
	if !lines {
		return printJSON(c, res.Commits)
	}
	if len(res.Details) == 0 {
		fmt.Fprintf(c.Root().ErrWriter, "no commits tied to %s (sources: %s)\n", opts.Ticket.ID, strings.Join(opts.Sources, ","))
		return nil
	}
	printChanges(c.Root().Writer, res.Details, res.Changes, res.Base)
	return nil
}

// printChanges writes one block per change: its subject, then an indented line per commit (short sha, committer
// date, the branches it is on, [the first tags that contain it], (why it matched)), backports after the original.
// Branches and tags are shortened for reading (package landing: the base branch and release lines first, the
// earliest release of each line, "and N more"); --json has them all. changes group the details
// (discover.Changes); base is the base branch's ref, or "".
func printChanges(out io.Writer, details []discover.CommitDetail, changes []discover.Change, base string) {
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
