package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// runVerifyNoted is `verify --rev REV` with no ARCHIVE: each archive noted on REV is found by its digest as get
// finds it (bundles folder, then refs/bernstein/archives, then the stores), written with its sidecars to a temporary folder, and
// verified there exactly as `verify ARCHIVE --rev REV` would verify it. The exit code is the worst of them.
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
	_, entries, err := s.notedEntriesOnRev(rev)
	if err != nil {
		return err
	}
	wd, err := s.env.getwd()
	if err != nil {
		return err
	}
	dir, err := s.bundleDir(c)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "git-bernstein-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	stores, err := s.stores(c, readStores)
	if err != nil {
		return err
	}
	worst := 0
	for i, e := range entries {
		cp, skipped, err := store.FindCopy(ctx, s.repo, dir, stores, e)
		warn(c, skipped)
		var report *verify.Report
		if err != nil {
			if !errors.Is(err, archives.ErrNotHeld) {
				return err
			}
			report = verify.Unusable(verify.CheckArchive, termtext.Clean(err.Error()))
		} else {
			written, err := archives.Write(tmp, cp)
			if err != nil {
				return err
			}
			path := written[0].Path
			o := opts
			o.Note = noteCheck(envOf(c), path, rev)
			o.Repository = repoCheck(c, envOf(c), wd)
			if report = addSSHTrust(c, wd, path, &o); report == nil {
				report = verify.VerifyFiles(verifyPaths(wd, []string{path}, c.StringSlice("card")), o)
			}
			if !c.Bool("json") {
				fmt.Fprintf(c.Root().Writer, "%s%s (%s): %s, from %s\n", sep(i), termtext.Clean(e.Ticket), termtext.Clean(e.Tracker),
					record.PathPart(filepath.Base(e.Bundle)), termtext.Clean(cp.From))
			}
		}
		if c.Bool("json") {
			c.Root().Writer.Write(report.JSON())
		} else {
			io.WriteString(c.Root().Writer, report.Text())
		}
		worst = max(worst, report.ExitCode)
	}
	if worst != 0 {
		return verdict(worst, "")
	}
	return nil
}

func sep(i int) string {
	if i == 0 {
		return ""
	}
	return "\n"
}

// notedEntriesOnRev is notes.Named for a revision only: verify --rev names a commit, never a ticket.
func (s *session) notedEntriesOnRev(rev string) (string, []notes.Entry, error) {
	if _, err := s.repo.Resolve(rev); err != nil {
		return "", nil, usageError("--rev %s: cannot resolve it: %v", rev, err)
	}
	return notes.Named(s.repo, notes.RefFrom(s.cfg), rev)
}
