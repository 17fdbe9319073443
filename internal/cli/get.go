package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/settings"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

func getCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "get",
		Usage:     "write the archives noted on a commit (or for a ticket) and their sidecars, checked against the notes",
		ArgsUsage: "REV|TICKET",
		Description: `Finds each archive noted on REV (or, when REV is not a revision, every archive noted for TICKET, compared
ignoring case) by its noted digest: in the bundles folder first, then in refs/bernstein/archives (fetch it with
'git bernstein fetch'), then in each git config bernstein.store in turn (oci://HOST[:PORT]/REPOSITORY,
s3://BUCKET[/PREFIX] at the versions refs/bernstein/archives records).
Every copy is checked against the note's bundle_sha256 before it is written, a copy that differs is passed
over with a warning, and each file is written atomically under --out DIR as
<tracker>/<ticket>/<bundle>, with its sidecars beside it (<bundle>.jws, .sig, .intoto.jsonl), never over an
existing file with other bytes. Exit 1 when an archive is noted but no copy with its digest is found.`,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "out", Value: ".", Usage: "write under `DIR`"},
			&ucli.StringFlag{Name: "bundle-dir", Usage: "root `DIR` of recorded bundles (default: git config bernstein.bundleDir, else <git common dir>/bernstein/bundles)"},
		},
		Action: runGet,
	}
}

// notedEntries are the note entries on rev, or, when rev does not resolve, those for the ticket it names.
func (s *session) notedEntries(arg string) (what string, entries []notes.Entry, err error) {
	ref := notes.RefFrom(s.cfg)
	if h, rerr := s.repo.Resolve(arg); rerr == nil {
		entries, _, ok, err := notes.On(s.repo, ref, h)
		if err != nil {
			return "", nil, err
		}
		if !ok {
			return "", nil, fmt.Errorf("no bundles noted on %s (%s) in %s; run 'git bernstein fetch' to get the remote's notes", arg, h.String()[:7], ref)
		}
		return fmt.Sprintf("%s (%s)", arg, h.String()[:7]), entries, nil
	}
	// Every note, not notes.Log's: a note on a commit this clone lacks (a branch not fetched) still names the
	// ticket's archive, and the archive is what is asked for.
	entries, err = notes.ForTicket(s.repo, ref, strings.TrimPrefix(arg, "#"))
	if err != nil {
		return "", nil, err
	}
	if len(entries) == 0 {
		return "", nil, fmt.Errorf("%s is neither a revision nor a ticket noted in %s; run 'git bernstein fetch' to get the remote's notes", arg, ref)
	}
	return "ticket " + arg, entries, nil
}

func runGet(ctx context.Context, c *ucli.Command) error {
	arg, err := oneArg(c, "REV or TICKET")
	if err != nil {
		return err
	}
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	start := envOf(c).now()
	what, entries, err := s.notedEntries(arg)
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
	out := inDir(wd, settings.ExpandHome(c.String("out")))
	stores, err := s.stores(c, readStores)
	if err != nil {
		return err
	}
	missing, files := 0, 0
	for _, e := range entries {
		cp, skipped, err := findCopy(ctx, s, dir, stores, e)
		warn(c, skipped)
		if errors.Is(err, archives.ErrNotHeld) {
			missing++
			fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: %v\n", termtext.Clean(err.Error()))
			continue
		}
		if err != nil {
			return err
		}
		written, err := archives.Write(out, cp)
		if err != nil {
			return err
		}
		for i, w := range written {
			files++
			note := ""
			if i == 0 {
				from := cp.From
				if from == archives.FromBundleDir {
					from = "the " + from
				}
				from = termtext.Clean(from)
				note = fmt.Sprintf(" (%s %s, sha256 %s… as noted, from %s)", termtext.Clean(e.Ticket), termtext.Clean(e.Tracker), e.BundleSHA256[:16], from)
			}
			if w.Already {
				note += " already there"
			}
			fmt.Fprintf(c.Root().Writer, "Wrote %s%s\n", displayPath(wd, w.Path), note)
		}
	}
	fmt.Fprintf(c.Root().ErrWriter, "%s of %s noted on %s written (%s)\n", plural.Count(len(entries)-missing, "archive"),
		plural.Count(len(entries), "archive"), termtext.Clean(what), envOf(c).now().Sub(start).Round(time.Millisecond))
	if missing > 0 {
		return fmt.Errorf("%d of %s not found with the noted digest", missing, plural.Count(len(entries), "archive"))
	}
	return nil
}
