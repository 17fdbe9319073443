package cli

import (
	"context"
	"fmt"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/store"
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
	wd, err := s.env.getwd()
	if err != nil {
		return err
	}
	dir, err := s.bundleDir(c)
	if err != nil {
		return err
	}
	out := inDir(wd, envOf(c).expandHome(c.String("out")))
	missing := 0
	what, n, err := store.Get(ctx, store.GetRequest{Repo: s.repo, NotesRef: notes.RefFrom(s.cfg), Arg: arg, BundleDir: dir,
		Out: out, Stores: func() ([]store.Store, error) { return s.stores(c, readStores) }}, func(got store.Got) {
		warn(c, got.Skipped)
		if got.Missing != nil {
			missing++
			fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: %v\n", termtext.Clean(got.Missing.Error()))
		}
		printWritten(c, wd, got)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Root().ErrWriter, "%s of %s noted on %s written (%s)\n", plural.Count(n-missing, "archive"),
		plural.Count(n, "archive"), termtext.Clean(what), envOf(c).now().Sub(start).Round(time.Millisecond))
	if missing > 0 {
		return fmt.Errorf("%d of %s not found with the noted digest", missing, plural.Count(n, "archive"))
	}
	return nil
}

// printWritten says which files get wrote for one entry, the first with where its copy came from.
func printWritten(c *ucli.Command, wd string, got store.Got) {
	e := got.Entry
	for i, w := range got.Written {
		note := ""
		if i == 0 {
			from := got.Copy.From
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
