package notes

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// Noted is one commit that carries bundle entries on a notes ref.
type Noted struct {
	SHA, Date, Subject string // Date is the committer date, YYYY-MM-DD in UTC; Subject the first line
	When               int64  // committer time, seconds
	// Tickets are "<ticket> (<tracker>)", once each, in the order people read ids (ENG-9 before ENG-10).
	Tickets []string
	Entries []Entry
}

// Log lists the commits of ref's notes that carry at least one entry, newest first (ties by sha); with want set,
// only those with an entry for that ticket (ticket.Same). Notes on objects that are not commits of this clone are
// left out: they are not part of this history.
func Log(r *gitext.Repo, ref gitext.RefName, want string) ([]Noted, error) {
	refs, err := objstore.Of(r).Notes(ref)
	if err != nil {
		return nil, err
	}
	var out []Noted
	for _, n := range refs {
		text, err := objstore.Of(r).ReadNote(n)
		if err != nil {
			return nil, err
		}
		entries, _ := Parse(text)
		if len(entries) == 0 {
			continue
		}
		hit := want == ""
		seen := map[string]bool{}
		var tickets []string
		for _, e := range entries {
			if t := fmt.Sprintf("%s (%s)", e.Ticket, e.Tracker); !seen[t] {
				seen[t] = true
				tickets = append(tickets, t)
			}
			hit = hit || ticket.Same(e.Ticket, want)
		}
		if !hit {
			continue
		}
		cm, err := r.Commit(n.Target)
		if err != nil {
			continue
		}
		sort.Slice(tickets, func(i, j int) bool { return naturalLess(tickets[i], tickets[j]) })
		subject, _, _ := strings.Cut(strings.TrimSpace(cm.Message), "\n")
		out = append(out, Noted{SHA: n.Target.String(), Date: cm.Committer.When.UTC().Format("2006-01-02"),
			Subject: subject, When: cm.Committer.When.Unix(), Tickets: tickets, Entries: entries})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].When != out[j].When {
			return out[i].When > out[j].When
		}
		return out[i].SHA < out[j].SHA
	})
	return out, nil
}

// naturalLess orders strings with their runs of digits compared as numbers: LANG-456 before LANG-1215.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
