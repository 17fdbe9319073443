package cli

import (
	"context"
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/gitverify"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// runVerifyNoted is `verify --rev REV` with no ARCHIVE: each archive noted on REV is found by its digest as get
// finds it (bundles folder, then refs/bernstein/archives, then the stores), written with its sidecars to a
// temporary folder, and verified there exactly as `verify ARCHIVE --rev REV` would verify it
// (gitverify.Noted). The exit code is the worst of them.
func runVerifyNoted(ctx context.Context, c *ucli.Command) error {
	rev := c.String("rev")
	opts, err := verifyOptions(c)
	if err != nil {
		return err
	}
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	// verify --rev names a commit, never a ticket (as get's REV may).
	if _, err := revparse.Resolve(s.repo, rev); err != nil {
		return usageError("--rev %s: cannot resolve it: %v", rev, err)
	}
	wd, err := s.env.getwd()
	if err != nil {
		return err
	}
	dir, err := s.bundleDir(c)
	if err != nil {
		return err
	}
	req := verifyRequest(c, wd, nil, opts) // the archives are the copies Noted finds
	req.Notes = func() (*gitext.Repo, gitext.RefName, error) { return s.repo, notes.RefFrom(s.cfg), nil }
	i := 0 // the reports are shown as they come, each after the copy is fetched and verified
	reports, err := gitverify.Noted(ctx, gitverify.NotedRequest{Request: req, BundleDir: dir,
		Stores: func() ([]store.Store, error) { return s.stores(c, readStores) },
		Each:   func(r gitverify.NotedReport) { printNoted(c, i, r); i++ }})
	if err != nil {
		return err
	}
	worst := 0
	for _, r := range reports {
		worst = max(worst, r.Report.ExitCode)
	}
	if worst != 0 {
		return verdict(worst, "")
	}
	return nil
}

// printNoted shows the i-th archive noted: the copies passed over on stderr, then, when one was found, where
// from, and its report (nothing more for the one Noted failed on).
func printNoted(c *ucli.Command, i int, r gitverify.NotedReport) {
	warn(c, r.Skipped)
	switch {
	case r.Report == nil:
	case c.Bool("json"):
		c.Root().Writer.Write(r.Report.JSON())
	default:
		if r.Found {
			fmt.Fprintf(c.Root().Writer, "%s%s (%s): %s, from %s\n", sep(i), termtext.Clean(r.Entry.Ticket),
				termtext.Clean(r.Entry.Tracker), r.Name, termtext.Clean(r.From))
		}
		io.WriteString(c.Root().Writer, r.Report.Text())
	}
}

func sep(i int) string {
	if i == 0 {
		return ""
	}
	return "\n"
}
