package controls

import (
	"github.com/git-bernstein/git-bernstein/internal/policy"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Audited is a bundle verified and, only when it is VERIFIED, its change controls under the policy (Controls;
// nil otherwise: the controls of a bundle that does not verify would be read from evidence nobody vouches for).
type Audited struct {
	Report   *verify.Report
	Controls *Result
}

// Audit verifies the files f names (verify.VerifyFiles) keeping what the controls read from the verifier's own
// read (a Collector as opts.Sink), then evaluates the controls under pol.
func Audit(f verify.Files, opts verify.Options, pol *policy.Policy) *Audited {
	kept := NewCollector()
	opts.Sink = kept
	a := &Audited{Report: verify.VerifyFiles(f, opts)}
	if a.Report.Verdict == verify.Verified {
		a.Controls = kept.Evaluate(a.Report, pol)
	}
	return a
}
