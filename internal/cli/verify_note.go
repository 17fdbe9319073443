package cli

import (
	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/notes"
)

// notesOf opens what verify --rev reads notes from (record.NoteCheck, gitverify): the repository around the
// working folder and its notes ref. It is called only once the archive's digest is taken, so a run outside a
// repository still reads the archive, and any problem goes into the check (unusable, exit 2).
func notesOf(env *Env) func() (*gitext.Repo, gitext.RefName, error) {
	return func() (*gitext.Repo, gitext.RefName, error) {
		s, err := openSession(env)
		if err != nil {
			return nil, "", err
		}
		return s.repo, notes.RefFrom(s.cfg), nil
	}
}
