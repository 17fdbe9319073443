package cli

import (
	"fmt"

	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// noteCheck reads what verify --rev needs from git: the archive's sha256 and the bundles noted on rev. Any
// problem goes into the check (unusable, exit 2) rather than stopping verify, so --json still reports it.
func noteCheck(env *Env, archivePath, rev string) *verify.NoteCheck {
	n := &verify.NoteCheck{Rev: rev}
	sum, err := record.FileSHA256(archivePath)
	if err != nil {
		n.Err = err
		return n
	}
	n.ArchiveSHA256 = sum
	s, err := openSession(env)
	if err != nil {
		n.Err = fmt.Errorf("--rev needs a repository: %v", err)
		return n
	}
	h, err := s.repo.Resolve(rev)
	if err != nil {
		n.Err = fmt.Errorf("cannot resolve %s: %v", rev, err)
		return n
	}
	ref := notes.RefFrom(s.cfg)
	entries, _, ok, err := notes.On(s.repo, ref, h)
	if err != nil {
		n.Err = err
		return n
	}
	if !ok {
		n.Err = fmt.Errorf("%s (%s) has no note in %s; get shared notes with 'git bernstein fetch' (see the README)", rev, h.String()[:7], ref)
		return n
	}
	for _, e := range entries {
		n.Noted = append(n.Noted, verify.NotedBundle{Tracker: e.Tracker, Ticket: e.Ticket, Bundle: e.Bundle, SHA256: e.BundleSHA256})
	}
	return n
}
