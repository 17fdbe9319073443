package cli

import (
	"context"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/ticketcommits"
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
	return ticketcommits.Run(s.repo, opts, c.Bool("json"), c.Root().Writer, c.Root().ErrWriter, s.showProgress(c))
}
