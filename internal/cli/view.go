package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/report"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

var viewDescription = fmt.Sprintf(`Writes one self-contained HTML page about a ticket bundle, for people who would rather look than read:
the verifier's verdict and every check line (exactly what 'git bernstein verify' prints for the same files),
then the ticket, its pull requests (title, author, who merged it, reviews and approvals), the commits (sha,
author, date, subject, why each matched), each commit's patch with added and removed lines coloured, the
transcripts as a conversation per agent, the traces as a timeline, lineage and audit records as tables, and the
manifest with sizes and hashes, each file marked as matching it or not.

The archive is read once, as a stream, in memory, by the verifier; the page shows exactly the bytes it
verified. When the archive check fails (a damaged archive, or one built to fool an extractor) only the report
is shown. Bundle text is escaped; the page's Content Security Policy lets it load and send nothing, so it
works offline and can be mailed. Each file shows at most its first %s, the page at most %s of bundle
content; sizes and hashes are always those of the whole file.

The page is written atomically to --out (default: ARCHIVE.html beside the archive). The exit code is the
verifier's (0 VERIFIED, 1 FAILED, 2 UNVERIFIABLE), as the page says; 1 also when the page cannot be written.`,
	verify.FormatSize(report.MaxMemberShown), verify.FormatSize(report.MaxTotalShown))

func viewCommand() *ucli.Command {
	return &ucli.Command{
		Name:        "view",
		Usage:       "write an HTML report of a ticket bundle: its verdict and its evidence, readable offline",
		ArgsUsage:   "ARCHIVE [SIGNATURE]",
		Description: viewDescription,
		Flags: append([]ucli.Flag{
			&ucli.StringSliceFlag{Name: "card", Usage: "a trusted agent card, JWK or JWKS `FILE` (repeatable), as for verify"},
			allowedSignersFlag(),
			&ucli.StringFlag{Name: "out", Usage: "write the page to `FILE.html` (default: ARCHIVE.html)"},
			policyFlag(),
			agentCardsFlag(),
		}, limitFlags()...),
		Action: runView,
	}
}

func runView(_ context.Context, c *ucli.Command) error {
	args, err := archiveArgs(c)
	if err != nil {
		return err
	}
	wd, err := envOf(c).getwd()
	if err != nil {
		return fmt.Errorf("find the current folder: %w", err)
	}
	out := inDir(wd, args[0]) + ".html"
	if o := c.String("out"); o != "" {
		out = inDir(wd, o)
	}
	lim, err := verifyLimits(c)
	if err != nil {
		return err
	}
	rep, err := report.WritePage(report.PageRequest{Files: verifyPaths(wd, args, c.StringSlice("card")),
		Options:    verify.Options{Limits: lim},
		AgentCards: func() (*logv1.Cards, error) { return agentCards(c) },
		Trust:      func(p string, o *verify.Options) *verify.Report { return addSSHTrust(c, wd, p, o) },
		Policy:     policyPath(c, wd), PolicyName: c.String("policy"), Out: out, Version: buildinfo.Version()})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Root().Writer, "%s: %s\n", rep.Verdict, out)
	if rep.ExitCode != 0 {
		return verdict(rep.ExitCode, "")
	}
	return nil
}
