package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/progress"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

func bundleFlags() []ucli.Flag {
	return flagGroups([]ucli.Flag{
		&ucli.StringFlag{Name: "out", Usage: "archive `PATH`; the signature goes to PATH.jws (default: ./<TICKET>.tar.gz)"},
	}, signKeyFlags(), []ucli.Flag{
		&ucli.StringFlag{Name: "created-at", Usage: "manifest created_at as RFC 3339 `TIME` (default: SOURCE_DATE_EPOCH when set, else now)"},
		&ucli.BoolFlag{Name: "whole-files", Usage: "pack lineage and audit JSONL files whole instead of only the ticket's lines, so their hash chains stay checkable"},
		&ucli.Int64Flag{Name: "probe-limit", Value: bundle.DefaultProbeLimit, Usage: "largest .json/.jsonl `BYTES` whose content is searched for the ticket"},
		&ucli.BoolFlag{Name: "no-pr", Usage: "do not fetch pull request payloads"},
		&ucli.BoolFlag{Name: "json", Usage: `print {"archive","signature","size_bytes","manifest","warnings"} instead of the one-line summary`},
		&ucli.StringFlag{Name: "note", Usage: "also note the bundle's digests on commit `REV` (see 'git bernstein show')"},
	}, signFlags(), prFlags())
}

func bundleCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "bundle",
		Usage:     "pack a ticket's commits, diff and agent artefacts into one signed, deterministic tar.gz",
		ArgsUsage: "TICKET",
		Description: `Builds <TICKET>.tar.gz holding manifest.json (schema_version 1), git/commits.json (what
'git bernstein commits --json' prints), git/diff.patch (one format-patch part per non-merge commit, oldest
first, each diffed against its first parent: 'git am' of one part applies on that parent; the whole series is
one 'git am' run only when each commit's parent is the part before, which backports and merged lines break),
and the .sdd artefacts of the ticket: transcripts/, traces/, lineage/, audit/. A .sdd file is
taken when its name names the ticket (any size), or when it is .json/.jsonl of at most --probe-limit bytes and
one record has string values equal to the tracker and to the ticket. Lineage and audit JSONL files chosen by
their content are packed as slices of their matching lines unless --whole-files. Symlinks are never followed.
The same repository state, .sdd and --created-at give a byte-identical archive.
With a key the manifest's JCS form is signed as a detached Ed25519 JWS (RFC 7797) at <archive>.jws.

The Bernstein form 'git bernstein bundle ticket TRACKER TICKET --out PATH' does the same.`,
		Flags: flagGroups(matchFlags(), bundleFlags(), []ucli.Flag{
			&ucli.StringFlag{Name: "sdd", Usage: "the `DIR` of agent artefacts (default: <worktree root>/.sdd)"}}),
		Action: runBundle,
		Commands: []*ucli.Command{
			{
				Name:      "ticket",
				Usage:     "the Bernstein form: bundle ticket TRACKER TICKET --out PATH",
				ArgsUsage: "TRACKER TICKET",
				Flags: flagGroups(sourceFlags(), bundleFlags(), []ucli.Flag{
					&ucli.StringFlag{Name: "workdir", Usage: "project root `DIR` holding .sdd/ (default: the worktree root)"}}),
				Action: runBundleTicket,
			},
			bundleVerifyCommand(),
		},
	}
}

func runBundle(ctx context.Context, c *ucli.Command) error {
	id, err := oneArg(c, "TICKET")
	if err != nil {
		return err
	}
	return buildBundle(ctx, c, id, "", "")
}

func runBundleTicket(ctx context.Context, c *ucli.Command) error {
	args := c.Args().Slice()
	if len(args) != 2 {
		return usageError("bundle ticket takes TRACKER and TICKET (got %d arguments); see 'git bernstein help bundle'", len(args))
	}
	return buildBundle(ctx, c, args[1], args[0], c.String("workdir"))
}

// buildBundle is both forms of bundle; tracker and workdir come from the Bernstein form's arguments.
func buildBundle(ctx context.Context, c *ucli.Command, id, tracker, workdir string) error {
	env := envOf(c)
	if workdir != "" {
		wd, err := filepath.Abs(workdir)
		if err != nil {
			return err
		}
		env = env.in(wd)
	}
	s, err := openSession(env)
	if err != nil {
		return err
	}
	s.workdir = workdir != ""
	opts, err := s.findOptions(c, tracker, id)
	if err != nil {
		return err
	}
	createdAt, err := createdAt(c)
	if err != nil {
		return err
	}
	signing, err := s.bundleSigning(c)
	if err != nil {
		return err
	}
	defer signing.Close()
	wd, err := s.env.getwd()
	if err != nil {
		return err
	}
	out := c.String("out")
	if out == "" {
		out = safeFileName(opts.Ticket.ID) + ".tar.gz"
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(wd, out)
	}
	sdd, err := s.sddFolder(c.String("sdd"), workdir != "")
	if err != nil {
		return err
	}
	if c.Int64("probe-limit") < 0 {
		return usageError("--probe-limit must not be negative")
	}
	set, err := s.settings(c)
	if err != nil {
		return err
	}
	lineageV2, err := lineage.Enabled(set.ProjectRoot, s.env.getenv)
	if err != nil {
		return err
	}
	done := s.showProgress(c)
	defer done()
	files := progress.New(c.Root().ErrWriter, "Packing", "files")
	defer files.Done()
	req := archives.BundleRequest{Build: bundle.Options{
		Progress:  files.Stage,
		Repo:      s.repo,
		Find:      opts,
		SDD:       sdd,
		Out:       out,
		CreatedAt: createdAt,
		Selector:  bundle.Selector{ProbeLimit: c.Int64("probe-limit"), WholeFiles: c.Bool("whole-files")},
		LineageV2: lineageV2,
		SignKey:   signing.Key,
		SignKid:   signing.Kid,
		SSHSig:    signing.SSHSig,
		Attest:    signing.Attest,
		OCIStore:  signing.OCIStore,
	}}
	req.PRs, req.PRErr = s.prRequest(c, opts.Ticket, sdd)
	if rev := c.String("note"); rev != "" {
		req.Note = &archives.NoteRequest{Repo: s.repo, NotesRef: notes.RefFrom(s.cfg), Rev: rev,
			Author: record.Identity(s.cfg, s.env.getenv)}
	}
	res, err := archives.BuildBundle(ctx, req)
	if res == nil {
		return githubUsage(err)
	}
	noteErr := err
	warn(c, res.Warnings)
	if c.Bool("json") {
		warnings := res.Warnings
		if warnings == nil {
			warnings = []string{}
		}
		return printJSON(c, map[string]any{"archive": res.Out, "signature": res.Signature, "size_bytes": res.Size,
			"manifest": res.Manifest, "warnings": warnings, "ssh_signature": res.SSHSig, "attestation": res.Attestation,
			"sigstore_bundle": res.SigstoreBundle})
	}
	shown := displayPath(wd, res.Out)
	line := fmt.Sprintf("Ticket bundle written to %s (%s, %s, tracker=%s ticket=%s).", shown, humanSize(res.Size),
		plural.Count(len(res.Manifest.Files), "file"), res.Manifest.Tracker, res.Manifest.TicketID)
	if res.Signature != "" {
		line += fmt.Sprintf(" Signed -> %s.", displayPath(wd, res.Signature))
	} else {
		line += " Unsigned (give --sign-key and --sign-kid, or set bernstein.signingKey and bernstein.signingKid)."
	}
	for _, p := range []string{res.SSHSig, res.Attestation, res.SigstoreBundle} {
		if p != "" {
			line += fmt.Sprintf(" Also -> %s.", displayPath(wd, p))
		}
	}
	fmt.Fprintln(c.Root().Writer, line)
	if res.Noted != nil {
		fmt.Fprintf(c.Root().Writer, "Noted on %s in %s (bundle sha256 %s).\n", res.Noted.Commit.String()[:7],
			req.Note.NotesRef, res.Noted.Entry.BundleSHA256)
	}
	return noteErr
}

func createdAt(c *ucli.Command) (time.Time, error) {
	if v := c.String("created-at"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return time.Time{}, usageError("--created-at %q is not RFC 3339 (e.g. 2026-01-02T15:04:05Z)", v)
		}
		return t.UTC(), nil
	}
	if v := envOf(c).getenv("SOURCE_DATE_EPOCH"); v != "" {
		sec, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return time.Time{}, usageError("SOURCE_DATE_EPOCH=%q is not a number of seconds", v)
		}
		return time.Unix(sec, 0).UTC(), nil
	}
	return envOf(c).now().UTC().Truncate(time.Second), nil
}

var unsafeFileChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]`) })

// safeFileName turns a ticket id into a file name: characters unsafe in file names become "_".
func safeFileName(id string) string {
	s := unsafeFileChars().ReplaceAllString(id, "_")
	if s == "" || s == "." || s == ".." {
		s = "_" + s
	}
	return s
}

// displayPath shows p relative to the working folder when it is inside it.
func displayPath(wd, p string) string {
	if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

func humanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	case n < 1024*1024*1024:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1024*1024*1024))
}
