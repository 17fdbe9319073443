package cli

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/git-bernstein/git-bernstein/internal/discover"
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

--json prints {"tracker","ticket_id","commits":[sha…],"details":[{"sha","parents","author","committer",
"subject","matched_by"}]}, the document bundles carry as git/commits.json.`,
		Flags: append(matchFlags(),
			&ucli.BoolFlag{Name: "json", Usage: "print the commits.json document instead of one line a commit"},
		),
		Action: runCommits,
	}
}

func runCommits(c *ucli.Context) error {
	id, err := oneArg(c, "TICKET")
	if err != nil {
		return err
	}
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	opts, err := s.findOptions(c, "", id)
	if err != nil {
		return err
	}
	done := s.showProgress(c)
	res, err := discover.Find(s.repo, opts)
	done()
	if err != nil {
		return err
	}
	warn(c, res.Warnings)
	if c.Bool("json") {
		return printJSON(c, res)
	}
	if len(res.Details) == 0 {
		fmt.Fprintf(c.App.ErrWriter, "no commits tied to %s (sources: %s)\n", opts.Ticket.ID, strings.Join(opts.Sources, ","))
		return nil
	}
	for _, d := range res.Details {
		date, _, _ := strings.Cut(d.Committer.Date, "T")
		fmt.Fprintf(c.App.Writer, "%s %s %s (%s)\n", d.SHA[:7], date, termtext.Clean(d.Subject),
			termtext.Clean(strings.Join(d.MatchedBy, ", ")))
	}
	return nil
}
