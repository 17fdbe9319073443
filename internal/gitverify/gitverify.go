// Package gitverify runs the verifier as verify, audit and extract run it in a repository: the verifier reads
// no git (it also runs in the browser), so this package gives it the checks that need one, from the flags the
// caller read: --rev's note check (record.NoteCheck: the archive is the one noted on REV) and --repo's
// repository check (repocheck.Open), then the SSH trust the caller reads (allowed signers, sidecars beside
// the archive), and verifies, audits or extracts. Noted (noted.go) is `verify --rev REV` with no ARCHIVE:
// each archive noted on REV, found as `get` finds it and verified so.
package gitverify

import (
	"errors"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/extract"
	"github.com/git-bernstein/git-bernstein/internal/policy"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/repocheck"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Request is one archive to verify, with the checks the flags asked for.
type Request struct {
	Files   verify.Files   // ARCHIVE [SIGNATURE] and the --card files
	Options verify.Options // limits, --strict, --agent-cards; Note and Repository are filled in here
	// Rev, when set, is --rev REV: the archive's digest is held to the bundles noted on REV. Notes gives the
	// repository and notes ref for it; it is asked for only once the archive's digest is taken, and its error
	// makes the note check unusable (exit 2), never the command fail.
	Rev   string
	Notes func() (*gitext.Repo, gitext.RefName, error)
	// Repo is --repo[=DIR]; nil without it.
	Repo *repocheck.Flag
	// Trust adds what the caller trusts besides cards (allowed signers) and the sidecars beside the archive
	// at archivePath to o; a report back means an input that cannot be used (exit 2): nothing is verified.
	// nil: nothing to add.
	Trust func(archivePath string, o *verify.Options) *verify.Report
}

// prepare fills in the note and repository checks, then the trust, in that order (each may read files and
// git); unusable, when not nil, is the report to give instead of verifying.
func (r Request) prepare() (o verify.Options, unusable *verify.Report) {
	o = r.Options
	if r.Rev != "" {
		o.Note = record.NoteCheck(r.Files.Archive, r.Rev, r.notes)
	}
	o.Repository = repocheck.Open(r.Repo)
	if r.Trust != nil {
		unusable = r.Trust(r.Files.Archive, &o)
	}
	return o, unusable
}

// notes is Notes, or, when the caller gave none, the error that there is no repository to read notes from.
func (r Request) notes() (*gitext.Repo, gitext.RefName, error) {
	if r.Notes == nil {
		return nil, "", errNoNotes
	}
	return r.Notes()
}

var errNoNotes = errors.New("no repository was given to read notes from")

// Verify is `verify ARCHIVE [SIGNATURE]`: the report, whose ExitCode is the command's.
func Verify(r Request) *verify.Report {
	o, unusable := r.prepare()
	if unusable != nil {
		return unusable
	}
	return verify.VerifyFiles(r.Files, o)
}

// AuditRequest is `audit`: an archive verified as Verify does, then its controls under the auditor's policy.
type AuditRequest struct {
	Request
	// Policy is the --policy file ("": the defaults), PolicyName the path as the user wrote it, for messages.
	Policy, PolicyName string
}

// Audit reads the policy first (a policy that does not read is the command's usage error, before any
// verdict: Audit's only error), then verifies and, when VERIFIED, evaluates the controls (controls.Audit).
// Inputs that cannot be used give the unusable report and no controls.
func Audit(r AuditRequest) (*controls.Audited, error) {
	pol, err := policy.ReadOptional(r.Policy, r.PolicyName)
	if err != nil {
		return nil, err
	}
	o, unusable := r.prepare()
	if unusable != nil {
		return &controls.Audited{Report: unusable}, nil
	}
	return controls.Audit(r.Files, o, pol), nil
}

// ExtractRequest is `extract`: an archive verified as Verify does (no --rev), and extracted only as
// extract.Options allow.
type ExtractRequest struct {
	Request
	// Extract's Into "" is the default: the archive's name without .tar.gz, in Wd (extract.DefaultInto);
	// its Verify is Request.Options, with the checks filled in.
	Extract extract.Options
	Wd      string
}

// Extract is extract.Files with the repository check and the trust filled in; its error is extract's (a
// destination refused, a write that failed: nothing was extracted).
func Extract(r ExtractRequest) (*extract.Result, error) {
	opts := r.Extract
	if opts.Into == "" {
		opts.Into = extract.DefaultInto(r.Wd, r.Files.Archive)
	}
	var unusable *verify.Report
	opts.Verify, unusable = r.prepare()
	return extract.Files(r.Files, unusable, opts)
}
