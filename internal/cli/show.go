package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

func showCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "show",
		Usage:     "show the bundles noted on a commit, for reviewers",
		ArgsUsage: "[REV]",
		Description: `Reads REV's note (default HEAD) on git config bernstein.notesRef (default refs/notes/bernstein) and prints
each bundle: ticket, file, digests, signer, and whether the file in the bundle folder still has the noted digest
(or "not read" when the path holds a symlink, a FIFO or a file with other names, which show never reads).
It also says whether refs/bernstein/archives holds the archive with the noted digest ('git bernstein get REV'
writes it; 'git bernstein fetch' brings the remote's).
--json prints {"commit","notes_ref","entries":[{…the note entry…,"path","local","why","archives_ref"}]} where
local is match, differs, missing or refused, why (only with refused) says why the copy was not read, and
archives_ref is true when refs/bernstein/archives holds the archive. Exit 1 when REV has no
note (fetch shared notes first; see the README).`,
		Flags: []ucli.Flag{
			&ucli.BoolFlag{Name: "json", Usage: "print JSON"},
			&ucli.StringFlag{Name: "bundle-dir", Usage: "root `DIR` of recorded bundles (default: git config bernstein.bundleDir, else <git common dir>/bernstein/bundles)"},
		},
		Action: runShow,
	}
}

// shownEntry is a note entry and what the bundle folder holds for it.
type shownEntry struct {
	notes.Entry
	Path  string `json:"path"`
	Local string `json:"local"`         // match, differs, missing, or refused (not read: a symlink, a FIFO, …)
	Why   string `json:"why,omitempty"` // why a local copy was refused
	// Kept says refs/bernstein/archives holds the archive with the noted digest (git bernstein get fetches it).
	Kept bool `json:"archives_ref"`
}

func runShow(_ context.Context, c *ucli.Command) error {
	args := c.Args().Slice()
	if len(args) > 1 {
		return usageError("show takes at most one REV (got %d arguments)", len(args))
	}
	rev := "HEAD"
	if len(args) == 1 {
		rev = args[0]
	}
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	dir, err := s.bundleDir(c)
	if err != nil {
		return err
	}
	ref := notes.RefFrom(s.cfg)
	shownNote, err := archives.Show(archives.ShowRequest{Repo: s.repo, NotesRef: ref, Rev: rev, BundleDir: dir})
	if err != nil {
		return err
	}
	for _, o := range shownNote.Other {
		fmt.Fprintf(c.Root().ErrWriter, "warning: %s: line not understood by this version: %s\n", ref, termtext.Clean(o))
	}
	h := shownNote.Commit
	wd, _ := envOf(c).getwd()
	shown := make([]shownEntry, 0, len(shownNote.Entries))
	for _, l := range shownNote.Entries {
		shown = append(shown, shownEntry{Entry: l.Entry, Path: l.Local.Path, Local: l.Local.State, Why: l.Local.Why,
			Kept: l.Kept})
	}
	if c.Bool("json") {
		return printJSON(c, map[string]any{"commit": h.String(), "notes_ref": ref.String(), "entries": shown})
	}
	w := c.Root().Writer
	subject := shownNote.Subject
	fmt.Fprintf(w, "commit %s %s\n", h.String()[:12], termtext.Clean(subject))
	for _, e := range shown {
		signed := "unsigned"
		if e.Signed {
			signed = "signed, kid " + termtext.Clean(e.Kid)
		}
		fmt.Fprintf(w, "\n%s (%s): %s, %s, %s, %s, created %s\n", termtext.Clean(e.Ticket),
			termtext.Clean(e.Tracker), termtext.Clean(e.Bundle), signed, plural.Count(e.Commits, "commit"), plural.Count(e.Files, "file"), termtext.Clean(e.CreatedAt))
		fmt.Fprintf(w, "  bundle sha256   %s\n  manifest sha256 %s\n", termtext.Clean(e.BundleSHA256), termtext.Clean(e.ManifestSHA256))
		switch e.Local {
		case record.LocalMatch:
			fmt.Fprintf(w, "  local copy      %s (digest matches)\n", displayPath(wd, e.Path))
		case record.LocalDiffers:
			fmt.Fprintf(w, "  local copy      %s (DIGEST DIFFERS: not the bundle that was noted)\n", displayPath(wd, e.Path))
		case record.LocalRefused:
			fmt.Fprintf(w, "  local copy      not read: %s\n", termtext.Clean(e.Why))
		default:
			fmt.Fprintf(w, "  local copy      none at %s; check another copy with 'git bernstein verify FILE --rev %s'\n", displayPath(wd, e.Path), h.String()[:12])
		}
		if e.Kept {
			fmt.Fprintf(w, "  archives ref    %s holds it: 'git bernstein get %s' writes it\n", archives.Ref, h.String()[:12])
		} else {
			fmt.Fprintf(w, "  archives ref    not in %s here; 'git bernstein fetch' gets the remote's\n", archives.Ref)
		}
	}
	return nil
}
