package cli

import (
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// noteBundle is `bundle --note REV`: the bundle just written is noted on REV as record notes its bundles.
// The note names the archive's file name only; show looks for it in the bundle folder, and verify --rev checks
// any copy against the noted digest.
func (s *session) noteBundle(c *ucli.Command, res *bundle.Result, kid, rev string) error {
	h, err := s.repo.Resolve(rev)
	if err != nil {
		return fmt.Errorf("--note %s: cannot resolve it: %w (the bundle was written but not noted)", rev, err)
	}
	entry, err := record.EntryFor(res, kid)
	if err != nil {
		return err
	}
	ref := notes.RefFrom(s.cfg)
	if _, err := notes.Add(s.repo, ref, h, record.Identity(s.cfg, s.env.getenv), entry); err != nil {
		return fmt.Errorf("--note %s: %w (the bundle was written but not noted)", rev, err)
	}
	fmt.Fprintf(c.Root().Writer, "Noted on %s in %s (bundle sha256 %s).\n", h.String()[:7], ref, entry.BundleSHA256)
	// The archive travels with its note (README, "Sharing evidence").
	keep := archives.Bundle{Tracker: entry.Tracker, Ticket: entry.Ticket, SHA256: entry.BundleSHA256, Archive: res.Out,
		Sidecars: map[string]string{archives.JWS: res.Signature, archives.SSHSig: res.SSHSig, archives.Attestation: res.Attestation}}
	if _, err := archives.Store(s.repo, record.Identity(s.cfg, s.env.getenv), []archives.Bundle{keep}); err != nil {
		return fmt.Errorf("--note %s: noted, but not kept in %s: %w", rev, archives.Ref, err)
	}
	return nil
}
