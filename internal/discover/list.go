package discover

import (
	"fmt"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// Listing is what `git bernstein commits` shows: the commits found and, for its lines, the changes they group
// into (Changes) and the base branch's ref that the lines' branch lists put first ("" when there is none).
type Listing struct {
	*Commits
	Changes []Change
	Base    string
}

// List is `git bernstein commits`: Find, and with lines (the text listing rather than the JSON document) the
// changes and the base branch the lines print.
func List(r *gitext.Repo, opts Options, lines bool) (Listing, error) {
	commits, err := Find(r, opts)
	if err != nil {
		return Listing{}, err
	}
	l := Listing{Commits: commits}
	if lines && len(commits.Details) > 0 {
		l.Changes = Changes(commits.Details)
		l.Base = commits.Discovery.BaseBranch.Ref // Find resolved it ("" when none)
	}
	return l, nil
}

// keyUnderGithub is Find's warning when a ticket id shaped like a Jira or Linear key is filed under github only
// because no tracker was chosen (Options.TrackerDefaulted).
func keyUnderGithub(id string) string {
	return fmt.Sprintf("%s looks like a Jira or Linear key, but bernstein.tracker is not set, so it is taken as a "+
		"github ticket: run `git config bernstein.tracker jira` (or linear), or give --tracker, so bundles and notes "+
		"name the right tracker (`git config bernstein.tracker github` keeps github and ends this warning)", id)
}
