package extract

import (
	"fmt"

	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Outcome is the line extract prints after the report when Extract returned no error: what was extracted and
// where, marked when only --allow-unverified let it through (and why it could not be verified), or why
// nothing was.
func (r *Result) Outcome() string {
	what := func() string { return plural.Count(r.Files, "file") }
	switch {
	case r.Extracted && r.Unverified && repoUnusable(r.Report):
		return fmt.Sprintf("EXTRACTED UNVERIFIED: %s in %s into %s "+
			"(--allow-unverified: the repository check could not be made)", what(), verify.FormatSize(r.Bytes), r.Into)
	case r.Extracted && r.Unverified:
		return fmt.Sprintf("EXTRACTED UNVERIFIED: %s in %s into %s "+
			"(--allow-unverified: nothing says who made these files)", what(), verify.FormatSize(r.Bytes), r.Into)
	case r.Extracted:
		return fmt.Sprintf("Extracted %s (%s, manifest.json included) into %s", what(), verify.FormatSize(r.Bytes),
			r.Into)
	}
	return "Nothing extracted: " + r.Reason
}

// repoUnusable says whether the report has an unusable repository check.
func repoUnusable(rep *verify.Report) bool {
	if rep == nil {
		return false
	}
	for _, c := range rep.Checks {
		if c.Check == verify.CheckRepository && c.Status == verify.CannotCheck {
			return true
		}
	}
	return false
}
