package objstore

import (
	"errors"
	"fmt"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// updateRef moves ref by compare-and-swap, the one way notes and the archives ref are written: step gets ref's
// commit and that commit's tree (zero for both when the ref does not exist) and returns the commit to move it
// to, or the old commit (or zero) to leave it. When another writer moved the ref between the read and the swap,
// the step runs again on the new state, after a short random wait, at most maxNoteAttempts times. A read that
// catches a ref file half-written by a writer is retried the same way. moved says whether the ref moved.
func (r *Store) updateRef(ref gitext.RefName, step func(oldCommit, oldTree gitext.Hash) (gitext.Hash, error)) (moved bool, err error) {
	for attempt := 0; attempt < maxNoteAttempts; attempt++ {
		oldCommit, oldTree, err := r.notesTree(ref)
		if err != nil {
			if attempt < maxNoteAttempts-1 && isTransientRefError(err) {
				backoff(attempt)
				continue
			}
			return false, err
		}
		next, err := step(oldCommit, oldTree)
		if err != nil {
			return false, err
		}
		if next.IsZero() || next == oldCommit {
			return false, nil
		}
		err = r.swapRef(ref, oldCommit, next)
		if errors.Is(err, errLostRace) {
			backoff(attempt)
			continue
		}
		if err != nil {
			return false, err
		}
		return true, nil
	}
	return false, fmt.Errorf("%w: %s kept changing or stayed locked for %d attempts; if no git process is running, "+
		"remove %s.lock and try again", ErrNotesBusy, ref, maxNoteAttempts, r.refPath(ref))
}
