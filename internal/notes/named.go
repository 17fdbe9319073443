package notes

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
)

// Named are the entries arg names in ref: those noted on the revision arg when it resolves, else every entry
// for the ticket arg names (a leading "#" dropped). what says which, for messages: "REV (abc1234)" or
// "ticket ID". Neither found is an error that says to fetch the remote's notes.
func Named(r *gitext.Repo, ref gitext.RefName, arg string) (what string, entries []Entry, err error) {
	if h, rerr := revparse.Resolve(r, arg); rerr == nil {
		entries, _, ok, err := On(r, ref, h)
		if err != nil {
			return "", nil, err
		}
		if !ok {
			return "", nil, fmt.Errorf("no bundles noted on %s (%s) in %s; run 'git bernstein fetch' to get the remote's notes", arg, h.String()[:7], ref)
		}
		return fmt.Sprintf("%s (%s)", arg, h.String()[:7]), entries, nil
	}
	// Every note, not Log's: a note on a commit this clone lacks (a branch not fetched) still names the
	// ticket's archive, and the archive is what is asked for.
	entries, err = ForTicket(r, ref, strings.TrimPrefix(arg, "#"))
	if err != nil {
		return "", nil, err
	}
	if len(entries) == 0 {
		return "", nil, fmt.Errorf("%s is neither a revision nor a ticket noted in %s; run 'git bernstein fetch' to get the remote's notes", arg, ref)
	}
	return "ticket " + arg, entries, nil
}
