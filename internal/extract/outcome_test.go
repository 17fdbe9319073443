package extract

import (
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/verify"
)

func TestOutcome(t *testing.T) {
	t.Parallel()
	repoUnusable := &verify.Report{Checks: []verify.Check{
		{Check: verify.CheckArchive, Status: verify.Pass},
		{Check: verify.CheckRepository, Status: verify.CannotCheck},
	}}
	unsigned := &verify.Report{Checks: []verify.Check{{Check: verify.CheckSignature, Status: verify.CannotCheck}}}
	for _, tc := range []struct {
		name string
		res  Result
		want string
	}{
		{"verified", Result{Report: &verify.Report{}, Extracted: true, Into: "out", Files: 1, Bytes: 2048},
			"Extracted 1 file (2 KiB, manifest.json included) into out"},
		{"unverified, the repository", Result{Report: repoUnusable, Extracted: true, Unverified: true, Into: "out", Files: 3, Bytes: 10},
			"EXTRACTED UNVERIFIED: 3 files in 10 B into out (--allow-unverified: the repository check could not be made)"},
		{"unverified, unsigned", Result{Report: unsigned, Extracted: true, Unverified: true, Into: "out", Files: 2, Bytes: 10},
			"EXTRACTED UNVERIFIED: 2 files in 10 B into out (--allow-unverified: nothing says who made these files)"},
		{"nothing", Result{Report: unsigned, Reason: "the verdict is FAILED: nothing was extracted"},
			"Nothing extracted: the verdict is FAILED: nothing was extracted"},
	} {
		if got := tc.res.Outcome(); got != tc.want {
			t.Errorf("%s: %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
