package cli

import (
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// noteBundle is `bundle --note REV`: the bundle just written is noted on REV as record notes its bundles, and
// kept on the archives ref (archives.NoteBundle).
func (s *session) noteBundle(c *ucli.Command, res *bundle.Result, kid, rev string) error {
	ref := notes.RefFrom(s.cfg)
	noted, err := archives.NoteBundle(archives.NoteRequest{Repo: s.repo, NotesRef: ref, Rev: rev,
		Author: record.Identity(s.cfg, s.env.getenv), Result: res, Kid: kid})
	if noted != nil {
		fmt.Fprintf(c.Root().Writer, "Noted on %s in %s (bundle sha256 %s).\n", noted.Commit.String()[:7], ref,
			noted.Entry.BundleSHA256)
	}
	return err
}
