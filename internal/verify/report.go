package verify

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/jsonout"
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// Status of one check, as --json prints it; the text report shows it upper-case in brackets.
type Status string

const (
	Pass Status = "pass"
	Warn Status = "warn"
	// Fail is a check that found a mismatch: what was signed is not what is there (FAILED, exit 1).
	Fail Status = "fail"
	// CannotCheck is a check that could not be made at all, "unusable" in --json and [UNUSABLE] in the text:
	// an unreadable or missing input, a limit passed, a newer format (UNVERIFIABLE, exit 2). It is no sign of
	// tampering, and --json must not say "fail" for it: scripts read "fail" as a mismatch.
	CannotCheck Status = "unusable"
)

// Check names, in the fixed order they run and are printed (doc.go, "Checks").
const (
	CheckArchive   = "archive"
	CheckManifest  = "manifest"
	CheckFiles     = "files"
	CheckSignature = "signature"
	CheckTrust     = "trust"
)

// Verdict words.
const (
	Verified     = "VERIFIED"
	Failed       = "FAILED"
	Unverifiable = "UNVERIFIABLE"
)

// Exit codes, the process's and --json's exit_code.
const (
	ExitVerified     = 0
	ExitFailed       = 1
	ExitUnverifiable = 2
	ExitWarnings     = 3 // verified, with warnings, under --strict
)

// maxProblems bounds one check's problem list: a hostile archive can have 100,000 extra members.
const maxProblems = 50

// Check is one line of the report. Problems lists each thing wrong (or worth a look) that the detail sums up.
type Check struct {
	Check    string   `json:"check"`
	Status   Status   `json:"status"`
	Detail   string   `json:"detail"`
	Problems []string `json:"problems"`
	// unusable marks a FAIL that means "could not be checked" (exit 2: unreadable input, a limit, a newer format)
	// rather than "does not match what was signed" (exit 1). The checks are built with Status Fail and this
	// mark; finish turns them into CannotCheck, which is what the report shows.
	unusable bool
}

// Report is the verifier's whole answer. Every string in it that came from the bundle has had control
// characters removed (termtext.Clean), so it is safe to print.
type Report struct {
	Verdict  string   `json:"verdict"`
	ExitCode int      `json:"exit_code"`
	TicketID string   `json:"ticket_id"`
	Tracker  string   `json:"tracker"`
	Kid      string   `json:"kid"`
	Checks   []Check  `json:"checks"`
	Failures []string `json:"failures"` // names of the checks that failed, in order
	Warnings []string `json:"warnings"` // "<check>: <detail>" of each warning
	// Attribution says, for each file a commit of the bundle wrote, which lineage v1 entries wrote exactly that
	// content (lineagev1.go); present with the lineage check only.
	Attribution []logv1.Attribution `json:"attribution,omitempty"`
	// PRSources says where each pr/ member came from (prsources.go), as pr/sources.json records it; present
	// with the pr-sources check when the member was read and names exactly the pr/ members.
	PRSources []prsource.Member `json:"pr_sources,omitempty"`
	// Means and NotMeans are the verdict's sentences: what it says and what it does not.
	Means    string `json:"-"`
	NotMeans string `json:"-"`
}

// FirstFailure returns the first failed check's name, or "".
func (r *Report) FirstFailure() string {
	if len(r.Failures) > 0 {
		return r.Failures[0]
	}
	return ""
}

func (r *Report) add(c Check) {
	if len(c.Problems) > maxProblems {
		more := len(c.Problems) - maxProblems
		c.Problems = append(c.Problems[:maxProblems:maxProblems], fmt.Sprintf("… and %d more", more))
	}
	r.Checks = append(r.Checks, c)
}

func (r *Report) find(name string) *Check {
	for i := range r.Checks {
		if r.Checks[i].Check == name {
			return &r.Checks[i]
		}
	}
	return nil
}

// Unusable is the report for an input that could not even be opened (a missing archive, an unreadable card):
// one failed check, exit 2.
func Unusable(check, detail string) *Report {
	r := &Report{}
	r.add(Check{Check: check, Status: Fail, Detail: detail, unusable: true})
	r.finish(false)
	return r
}

// finish cleans every string, lists failures and warnings, and decides the verdict. VERIFIED needs every
// check of the chain present and not failed, and the trust check passed: a check that did not run (by a bug or
// an early stop) can never let a bundle through.
func (r *Report) finish(strict bool) {
	r.TicketID, r.Tracker, r.Kid = termtext.Clean(r.TicketID), termtext.Clean(r.Tracker), termtext.Clean(r.Kid)
	r.Failures, r.Warnings = []string{}, []string{}
	mismatch, unusable := false, false
	var firstUnusable *Check
	for i := range r.Checks {
		c := &r.Checks[i]
		c.Detail = termtext.Clean(c.Detail)
		if c.Problems == nil {
			c.Problems = []string{}
		}
		for j := range c.Problems {
			c.Problems[j] = termtext.Clean(c.Problems[j])
		}
		if c.Status == Fail && c.unusable {
			c.Status = CannotCheck
		}
		switch c.Status {
		case Fail, CannotCheck:
			r.Failures = append(r.Failures, c.Check)
			if c.Status == CannotCheck {
				unusable = true
				if firstUnusable == nil {
					firstUnusable = c
				}
			} else {
				mismatch = true
			}
		case Warn:
			r.Warnings = append(r.Warnings, c.Check+": "+c.Detail)
		}
	}
	complete := true
	for _, name := range []string{CheckArchive, CheckManifest, CheckFiles, CheckSignature, CheckTrust} {
		if c := r.find(name); c == nil || c.Status == Fail || c.Status == CannotCheck {
			complete = false
		}
	}
	trust := r.find(CheckTrust)
	anchored := trust != nil && trust.Status == Pass

	switch {
	case mismatch:
		r.Verdict, r.ExitCode = Failed, ExitFailed
		r.Means = "This bundle does not match what was signed: something in it was changed, added or removed, " +
			"or it is not signed by a key you trust. Failed: " + strings.Join(r.Failures, ", ") + "."
		r.NotMeans = "It does not say who changed it or why (the FAIL lines say what does not match); do not rely on its contents."
	case unusable:
		r.Verdict, r.ExitCode = Unverifiable, ExitUnverifiable
		r.Means = "The " + firstUnusable.Check + " check could not be made, so the bundle was not fully checked: " + strings.TrimSuffix(firstUnusable.Detail, ".") + "."
		r.NotMeans = "No check found a mismatch, so this is no sign of tampering; but nothing in the bundle can be relied on until a usable copy verifies."
	case !complete || !anchored:
		r.Verdict, r.ExitCode = Unverifiable, ExitUnverifiable
		r.Means = "The archive holds exactly the files its manifest lists, but no signature was checked against a key you gave, so nothing says who made it."
		r.NotMeans = "It does not mean the bundle is genuine: anyone can write a bundle that matches its own manifest, or sign one with a key of their own. " +
			"Get the signer's agent card from them directly (not from the bundle) and pass it with --card, with the bundle's .jws."
	default:
		r.Verdict, r.ExitCode = Verified, ExitVerified
		if strict && len(r.Warnings) > 0 {
			r.ExitCode = ExitWarnings
		}
		r.Means = fmt.Sprintf("The archive holds exactly the files its manifest lists, unchanged, and the manifest is signed by the key you trust as kid %q.", r.Kid)
		if len(r.Warnings) > 0 {
			r.Means += fmt.Sprintf(" Read the %s above (exit 3 with --strict).", plural.Count(len(r.Warnings), "warning"))
		}
		r.NotMeans = "It does not mean the work in it is right or complete, only that nothing was changed, added or removed after it was signed."
	}
	r.Means, r.NotMeans = termtext.Clean(r.Means), termtext.Clean(r.NotMeans)
}

// Tag is the check's status as the text report shows it: PASS, WARN, FAIL, or UNUSABLE for a check that could
// not be made at all (an unreadable or missing input, a limit, a newer format). An input that cannot be read is
// not a failed check: the verdict is then UNVERIFIABLE, and the line must not say FAIL.
func (c Check) Tag() string {
	if c.Status == CannotCheck || c.Status == Fail && c.unusable {
		return "UNUSABLE"
	}
	return strings.ToUpper(string(c.Status))
}

// Text renders the report as the command prints it: one line per check in order, `[PASS|WARN|FAIL|UNUSABLE] <check> —
// <detail>`, each problem indented below, then the verdict word with what it means and what it does not.
func (r *Report) Text() string {
	var b strings.Builder
	for _, c := range r.Checks {
		fmt.Fprintf(&b, "[%s] %s — %s\n", c.Tag(), c.Check, c.Detail)
		for _, p := range c.Problems {
			fmt.Fprintf(&b, "       - %s\n", p)
		}
		if c.Check == CheckLineage && len(r.Attribution) > 0 {
			fmt.Fprintf(&b, "       who wrote each file of the commits (commit, file: the lineage entry that wrote exactly that content):\n")
			for _, a := range r.Attribution {
				fmt.Fprintf(&b, "       * %s\n", termtext.Clean(a.Summary()))
			}
		}
	}
	fmt.Fprintf(&b, "%s: %s %s\n", r.Verdict, r.Means, r.NotMeans)
	return b.String()
}

// JSON renders the report as --json prints it, with a final newline.
func (r *Report) JSON() []byte {
	b, err := jsonout.Bytes(r)
	if err != nil {
		// Only strings, ints and slices of them: encoding cannot fail.
		panic(err)
	}
	return b
}
