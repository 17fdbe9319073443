package cli

import (
	"context"
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/extract"
	"github.com/git-bernstein/git-bernstein/internal/gitverify"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

const extractDescription = `Verifies a ticket bundle and extracts it, from one read of the archive: the verifier itself hands each
member's bytes to the extractor, so no second tar reader ever interprets the headers. This is how an auditor
should unwrap a bundle; tar xzf of an untrusted archive is not the same (tar readers differ on the very headers
a forger would use, and tar restores the modes, owners and links the archive asks for).

Members go into a fresh staging folder beside DIR, each file created new (O_EXCL, never through a symlink),
mode 0644, folders 0755, never outside DIR, each file fsynced. Only a VERIFIED bundle is renamed into place as
DIR (default: the archive's name without .tar.gz, in the current folder), mode 0755; DIR must not exist.
Otherwise the staging folder is removed and nothing is left. With --allow-unverified, an intact bundle that is
only unsigned or unchecked (no --card; no check failed) is extracted too, and the output says so. A FAILED
bundle never is. --repo[=DIR] runs verify's repository check: a git section the clone contradicts is FAILED;
one it cannot check (a commit it lacks) extracts only with --allow-unverified.

An extract killed mid-way leaves its staging folder (.DIR.extract-*) behind; the next extract beside it removes
it, and says so on stderr, when a marker file its process held locked proves it abandoned. Folders it cannot
prove its own are never touched; those of yours named like one (left by an older extract) are named on stderr.

The check lines and the verdict are exactly verify's (see 'git bernstein help verify'), then one line saying
what was extracted, or why nothing was.

EXIT CODES (as verify):
   0  VERIFIED, extracted
   1  FAILED, nothing extracted
   2  UNVERIFIABLE (extracted only with --allow-unverified), unusable input, DIR exists, a write error
   3  --strict only: verified with warnings (extracted)`

func extractCommand() *ucli.Command {
	flags := append(verifyFlags(),
		&ucli.StringFlag{Name: "into", Usage: "extract into `DIR`, which must not exist (default: the archive name without .tar.gz)"},
		&ucli.BoolFlag{Name: "allow-unverified", Usage: "also extract an intact bundle that is unsigned or was not checked against a --card"},
	)
	return &ucli.Command{
		Name:        "extract",
		Usage:       "verify a ticket bundle and extract it only if VERIFIED, from one read of its bytes",
		ArgsUsage:   "ARCHIVE [SIGNATURE]",
		Description: extractDescription,
		Flags:       withoutFlag(flags, "rev"),
		Action:      runExtract,
	}
}

// withoutFlag drops the flag named name.
func withoutFlag(flags []ucli.Flag, name string) []ucli.Flag {
	out := flags[:0:0]
	for _, f := range flags {
		if f.Names()[0] != name {
			out = append(out, f)
		}
	}
	return out
}

// extractJSON is what extract --json prints: verify's report with what was extracted.
type extractJSON struct {
	*verify.Report
	Extracted  bool   `json:"extracted"`
	Unverified bool   `json:"extracted_unverified"`
	Into       string `json:"into"`
	Files      int    `json:"files"`
	Bytes      int64  `json:"bytes"`
	Reason     string `json:"reason,omitempty"`
	Error      string `json:"error,omitempty"`
}

func runExtract(_ context.Context, c *ucli.Command) error {
	args, vopts, wd, err := verifyInputs(c)
	if err != nil {
		return err
	}
	if err := repoWrittenApart(c, wd, args); err != nil {
		return err
	}
	var into string // "": extract's default, the archive's name in the working folder
	if d := c.String("into"); d != "" {
		into = inDir(wd, d)
	}
	req := verifyRequest(c, wd, args, vopts)
	req.Rev = "" // extract has no --rev
	res, xerr := gitverify.Extract(gitverify.ExtractRequest{Request: req, Wd: wd,
		Extract: extract.Options{Into: into, AllowUnverified: c.Bool("allow-unverified")}})
	for _, st := range res.Swept {
		gone := ""
		if st.PID != 0 {
			gone = fmt.Sprintf(" (process %d, which is gone)", st.PID)
		}
		fmt.Fprintf(c.Root().ErrWriter, "removed %s: the staging folder of an extract that was interrupted%s, with unverified files\n", st.Path, gone)
	}
	for _, p := range res.Unproven {
		fmt.Fprintf(c.Root().ErrWriter, "left %s alone: it looks like the staging folder of an interrupted extract, but has no marker "+
			"proving it one (an extract before markers, or one killed as it started): remove it yourself if it is\n", p)
	}
	if res.Report == nil { // the destination was refused before anything was read
		return verdict(verify.ExitUnverifiable, "%v", xerr)
	}
	code := res.Report.ExitCode
	if xerr != nil {
		code = verify.ExitUnverifiable
	}
	if c.Bool("json") {
		j := extractJSON{Report: res.Report, Extracted: res.Extracted, Unverified: res.Unverified, Into: res.Into,
			Files: res.Files, Bytes: res.Bytes, Reason: res.Reason}
		if xerr != nil {
			j.Error = xerr.Error()
			j.ExitCode = code
		}
		if err := printJSON(c, j); err != nil {
			return err
		}
		if code != 0 {
			return verdict(code, "")
		}
		return nil
	}
	io.WriteString(c.Root().Writer, res.Report.Text())
	if xerr != nil {
		return verdict(code, "%v; nothing was extracted", xerr)
	}
	fmt.Fprintln(c.Root().Writer, res.Outcome())
	if code != 0 {
		return verdict(code, "")
	}
	return nil
}
