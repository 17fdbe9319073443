package report

import (
	"fmt"
	"io"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/policy"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/unusable"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// PageRequest is `view`: the page of the files Files names, verified with Options, written to Out.
type PageRequest struct {
	Files   verify.Files
	Options verify.Options
	// AgentCards, when set, gives Options.AgentCards (view --agent-cards); it is asked for after the archive
	// and policy are checked, so that errors come in the order the flags are read, and its error is returned
	// as it is.
	AgentCards func() (*logv1.Cards, error)
	// Trust adds what the caller trusts besides cards (allowed signers) and the sidecars beside the archive
	// at archivePath to o; a report back is an input that cannot be used: the page is that report. nil: none.
	Trust func(archivePath string, o *verify.Options) *verify.Report
	// Policy is the --policy file ("": the defaults), PolicyName the path as the user wrote it, for messages.
	Policy, PolicyName string
	Out                string // the page's file, written atomically (replaced when there)
	Version            string // the git-bernstein that makes the page
}

// UnusableInput is an input no page is made from: the archive not a regular file (a missing file, a FIFO or
// device, which would hang or never end), or a policy that does not read. Nothing is written (the CLI's usage
// error, exit 2).
type UnusableInput = unusable.Error

// WritePage checks that the archive is a regular file and reads the policy (an *UnusableInput when either
// fails) and the agent cards, then verifies and reads the bundle (ReadFiles; the trust's unusable report
// instead when it gives one) and writes its page to Out. The report is the page's verdict; an error after the
// inputs is the write's.
func WritePage(r PageRequest) (*verify.Report, error) {
	f, _, err := regularfile.Open(r.Files.Archive, "archive")
	if err != nil {
		return nil, unusable.Wrap(err)
	}
	f.Close()
	pol, err := policy.ReadOptional(r.Policy, r.PolicyName)
	if err != nil {
		return nil, unusable.Wrap(err)
	}
	o := r.Options
	if r.AgentCards != nil {
		if o.AgentCards, err = r.AgentCards(); err != nil {
			return nil, err
		}
	}
	var b *Bundle
	if r.Trust != nil {
		if unusable := r.Trust(r.Files.Archive, &o); unusable != nil {
			b = &Bundle{Report: unusable}
		}
	}
	if b == nil {
		b = ReadFiles(r.Files, o)
	}
	b.Policy = pol
	err = atomicfile.Write(r.Out, 0o644, false, func(w io.Writer) error { return Write(w, b, r.Version) })
	if err != nil {
		return b.Report, fmt.Errorf("write %s: %w", r.Out, err)
	}
	return b.Report, nil
}
