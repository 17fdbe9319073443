package controls

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// Text is audit's report for a person: one line per control and subject, the evidence under each exception,
// the summary, and what to look at. Every string from the bundle is cleaned of control characters.
func (r *Result) Text() string {
	var b strings.Builder
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", termtext.Clean(n))
	}
	for _, o := range r.Outcomes {
		fmt.Fprintf(&b, "%-11s %-20s %-19s %s\n", "["+strings.ToUpper(o.Status)+"]", o.Control, shortSubject(o.Subject), termtext.Clean(o.Detail))
		if o.Status != Exception {
			continue
		}
		for _, e := range o.Evidence {
			fmt.Fprintf(&b, "            - %s\n", termtext.Clean(e.line()))
		}
	}
	fmt.Fprintf(&b, "controls: %d pass, %d exception, %d unknown\n", r.Counts.Pass, r.Counts.Exception, r.Counts.Unknown)
	if r.Counts.Exception > 0 {
		seen := map[string]bool{}
		var look []string
		for _, o := range r.Outcomes {
			for _, e := range o.Evidence {
				if o.Status == Exception && !seen[e.Member] {
					seen[e.Member] = true
					look = append(look, e.Member)
				}
			}
		}
		fmt.Fprintf(&b, "look at: %s (extract them with git bernstein extract)\n", termtext.Clean(strings.Join(look, ", ")))
	}
	return b.String()
}

func (e Evidence) line() string {
	s := e.What + " [" + e.Member + "#" + e.Pointer
	var more []string
	if e.Who != "" {
		more = append(more, "who "+e.Who)
	}
	if e.Commit != "" {
		more = append(more, "commit "+short(e.Commit))
	}
	if e.When != "" {
		more = append(more, "at "+e.When)
	}
	if len(more) > 0 {
		s += "; " + strings.Join(more, ", ")
	}
	return s + "]"
}

func shortSubject(s string) string {
	if rest, ok := strings.CutPrefix(s, "commit "); ok {
		return "commit " + short(rest)
	}
	return s
}
