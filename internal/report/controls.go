package report

import (
	"regexp"
	"sync"

	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// prPayloadName is a pull request payload's arcname, pr/pr_<N>.json; the other pr/ members (reviews,
// sources, the change-control members of package controls) are not payloads.
var prPayloadName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pr/pr_[1-9][0-9]*\.json$`) })

// controlsOf evaluates the change controls (package controls, as `git bernstein audit` does) over the members
// shown, when the bundle is VERIFIED; otherwise it says why not. A member the page budget cut short is not
// evidence, and a note says so.
func controlsOf(b *Bundle) (*controls.Result, string) {
	if b.Report.Verdict != verify.Verified {
		return nil, "the bundle is not VERIFIED: change controls are judged only on a verified bundle"
	}
	in := controls.Input{Members: map[string][]byte{}, Attribution: b.Report.Attribution}
	var cut []string
	for _, mb := range b.Members {
		if !controls.Reads(mb.Name) {
			continue
		}
		if mb.Truncated {
			cut = append(cut, mb.Name)
			continue
		}
		in.Members[mb.Name] = mb.Head
	}
	res := controls.Evaluate(in, b.Policy)
	for _, name := range cut {
		res.Notes = append(res.Notes, name+" is larger than the page shows, so it is not used here: run git bernstein audit")
	}
	return res, ""
}
