package discover

import "github.com/git-bernstein/git-bernstein/gitext"

// Recorded is what commits.json records of c that c itself determines: sha, parents, author, committer,
// subject and cherry_picked_from (not matched_by, patch_id or landed_on, which depend on the ticket, the
// configuration and the refs). `verify --repo` holds a bundle's details against it.
func Recorded(c *gitext.Commit) CommitDetail {
	d := detail(c, nil)
	d.CherryPickedFrom = cherryPickedFrom(c.Message)
	return d
}
