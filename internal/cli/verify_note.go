package cli

import (
	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// noteCheck reads what verify --rev needs from git (record.NoteCheck): the archive's sha256 and the bundles
// noted on rev. Any problem goes into the check (unusable, exit 2) rather than stopping verify, so --json still
// reports it; the repository is opened only once the archive's digest is taken.
func noteCheck(env *Env, archivePath, rev string) *verify.NoteCheck {
	return record.NoteCheck(archivePath, rev, func() (*gitext.Repo, gitext.RefName, error) {
		s, err := openSession(env)
		if err != nil {
			return nil, "", err
		}
		return s.repo, notes.RefFrom(s.cfg), nil
	})
}
