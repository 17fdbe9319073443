package objstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// This file reads and writes git notes (`git help notes`) with go-git plumbing, which has no notes API. A notes ref names a commit whose tree maps annotated objects to note blobs; the path of a
// note is the object's hex id, possibly split into fan-out folders (ab/cdef…) once a tree grows large. We read
// every fan-out, keep every note we do not touch, and move the ref with a compare-and-swap so that concurrent
// writers never lose each other's notes.

// NoteRef is one note of a notes tree: the annotated object and the blob holding the note's text.
type NoteRef struct {
	Target gitext.Hash
	Blob   gitext.Hash
}

// notesTree returns the tree of the notes commit ref points to; zero when the ref does not exist yet.
func (r *Store) notesTree(ref gitext.RefName) (commit, tree gitext.Hash, err error) {
	cur, err := r.st.Reference(ref)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, plumbing.ZeroHash, fmt.Errorf("read notes ref %s: %w", ref, err)
	}
	if cur.Type() != plumbing.HashReference {
		return plumbing.ZeroHash, plumbing.ZeroHash, fmt.Errorf("notes ref %s is symbolic: point it at a notes commit or remove it", ref)
	}
	c, err := object.GetCommit(r.st, cur.Hash())
	if err != nil {
		return plumbing.ZeroHash, plumbing.ZeroHash, fmt.Errorf("notes ref %s names commit %s: %w; run `git fsck`", ref, cur.Hash(), err)
	}
	return cur.Hash(), c.TreeHash, nil
}

// Note returns the text of target's note on ref; ok is false when it has none.
func (r *Store) Note(ref gitext.RefName, target gitext.Hash) (text []byte, ok bool, err error) {
	_, tree, err := r.notesTree(ref)
	if err != nil || tree.IsZero() {
		return nil, false, err
	}
	blob, ok, err := r.findNote(tree, target.String())
	if err != nil || !ok {
		return nil, false, err
	}
	text, err = r.readBlob(blob)
	return text, err == nil, err
}

// Notes lists every note on ref, whatever its fan-out, sorted by target. Tree entries that are not notes
// (git allows other files in a notes tree) are skipped.
func (r *Store) Notes(ref gitext.RefName) ([]NoteRef, error) {
	_, tree, err := r.notesTree(ref)
	if err != nil || tree.IsZero() {
		return nil, err
	}
	return r.notesIn(tree, ref.String())
}

// notesIn lists the notes of a notes tree, whatever its fan-out, sorted by target; where names it in errors.
func (r *Store) notesIn(tree gitext.Hash, where string) ([]NoteRef, error) {
	var out []NoteRef
	var walk func(tree plumbing.Hash, prefix string) error
	walk = func(tree plumbing.Hash, prefix string) error {
		t, err := object.GetTree(r.st, tree)
		if err != nil {
			return fmt.Errorf("notes tree %s of %s: %w", tree, where, err)
		}
		for _, e := range t.Entries {
			name := prefix + e.Name
			if !isHex(e.Name) || len(name) > 40 {
				continue
			}
			switch {
			case e.Mode == filemode.Dir && len(e.Name) == 2 && len(name) < 40:
				if err := walk(e.Hash, name); err != nil {
					return err
				}
			case e.Mode != filemode.Dir && len(name) == 40:
				out = append(out, NoteRef{Target: plumbing.NewHash(name), Blob: e.Hash})
			}
		}
		return nil
	}
	if err := walk(tree, ""); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i].Target[:], out[j].Target[:]) < 0 })
	return out, nil
}

// ReadNote reads a note blob listed by Notes.
func (r *Store) ReadNote(n NoteRef) ([]byte, error) { return r.readBlob(n.Blob) }

// findNote looks hex up in a notes tree: a file named with the rest of the id, or a two-digit fan-out folder.
func (r *Store) findNote(tree gitext.Hash, hex string) (gitext.Hash, bool, error) {
	t, err := object.GetTree(r.st, tree)
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("notes tree %s: %w", tree, err)
	}
	for _, e := range t.Entries {
		if e.Mode != filemode.Dir && e.Name == hex {
			return e.Hash, true, nil
		}
	}
	if len(hex) > 2 {
		for _, e := range t.Entries {
			if e.Mode == filemode.Dir && e.Name == hex[:2] {
				return r.findNote(e.Hash, hex[2:])
			}
		}
	}
	return plumbing.ZeroHash, false, nil
}

// NoteEdit computes a note's new text from its current one (nil, false when there is none). Returning the
// current text unchanged writes nothing.
type NoteEdit func(old []byte, exists bool) ([]byte, error)

// ErrNotesBusy is returned when the notes ref stayed locked or contended through every retry.
var ErrNotesBusy = errors.New("notes ref busy")

// errLostRace says another writer moved the ref between our read and our swap: read again and redo the edit.
var errLostRace = errors.New("notes ref moved under us")

// maxNoteAttempts bounds the retry loop; each lost race costs one re-read and one small tree rewrite, and the
// jittered back-off below gives a lock holder (git itself, or us) time to finish: about 5 s in all.
const maxNoteAttempts = 200

// EditNote changes target's note on ref and commits the new notes tree with sig as author and committer,
// whose parent is the ref's old commit; then it moves the ref only if nobody else moved it meanwhile, and redoes
// the edit on the new state when somebody did. changed is false when edit left the note as it was.
func (r *Store) EditNote(ref gitext.RefName, target gitext.Hash, sig gitext.Signature, message string, edit NoteEdit) (changed bool, err error) {
	return r.updateRef(ref, func(oldCommit, oldTree plumbing.Hash) (plumbing.Hash, error) {
		var cur []byte
		var exists bool
		if !oldTree.IsZero() {
			blob, ok, err := r.findNote(oldTree, target.String())
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if ok {
				if cur, err = r.readBlob(blob); err != nil {
					return plumbing.ZeroHash, err
				}
				exists = true
			}
		}
		next, err := edit(cur, exists)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if exists && bytes.Equal(next, cur) {
			return oldCommit, nil
		}
		blob, err := r.writeObject(plumbing.BlobObject, next)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		tree, err := r.putNote(oldTree, target.String(), blob)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		newCommit, err := r.writeCommit(tree, []gitext.Hash{oldCommit}, sig, message) // a zero parent is none
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("notes: %w", err)
		}
		return newCommit, nil
	})
}

// isTransientRefError is a read that raced a writer: go-git rewrites loose ref files in place, so a reader can
// catch one empty or half-written.
func isTransientRefError(err error) bool {
	return errors.Is(err, plumbing.ErrObjectNotFound) || strings.Contains(err.Error(), "ref file is empty")
}

func backoff(attempt int) {
	limit := 2 + attempt
	if limit > 40 {
		limit = 40
	}
	time.Sleep(time.Duration(1+rand.IntN(limit)) * time.Millisecond)
}

func (r *Store) refPath(ref gitext.RefName) string {
	return filepath.Join(r.repo.CommonDir, filepath.FromSlash(ref.String()))
}

// swapRef moves ref from old (zero: ref must not exist) to new. It holds git's own lock file, <ref>.lock,
// throughout, so that `git notes` and `git update-ref` running at the same moment wait for us as they wait for
// each other. Within it the swap itself is go-git's CheckAndSetReference, which also flocks the ref file against
// other go-git writers that do not know git's lock protocol. A ref that does not exist yet is created by
// renaming the lock file into place, as git does, since CheckAndSetReference cannot check "absent".
func (r *Store) swapRef(ref gitext.RefName, old, new gitext.Hash) error {
	path := r.refPath(ref)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if os.IsExist(err) {
		return errLostRace // someone else is updating it now; try again after they finish
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", ref, err)
	}
	locked := true
	defer func() {
		lock.Close()
		if locked {
			os.Remove(path + ".lock")
		}
	}()
	newRef := plumbing.NewHashReference(ref, new)
	if old.IsZero() {
		if _, err := r.st.Reference(ref); err == nil {
			return errLostRace
		} else if !errors.Is(err, plumbing.ErrReferenceNotFound) {
			return fmt.Errorf("read notes ref %s: %w", ref, err)
		}
		if _, err := io.WriteString(lock, new.String()+"\n"); err != nil {
			return fmt.Errorf("write %s.lock: %w", path, err)
		}
		if err := lock.Sync(); err != nil {
			return fmt.Errorf("write %s.lock: %w", path, err)
		}
		if err := os.Rename(path+".lock", path); err != nil {
			return fmt.Errorf("create notes ref %s: %w", ref, err)
		}
		locked = false
		return nil
	}
	err = r.st.CheckAndSetReference(newRef, plumbing.NewHashReference(ref, old))
	if errors.Is(err, storage.ErrReferenceHasChanged) {
		return errLostRace
	}
	if err != nil {
		return fmt.Errorf("update notes ref %s: %w", ref, err)
	}
	return nil
}

// notesEntries is a copy of the entries of notes tree tree; none for the zero hash (no notes yet).
func (r *Store) notesEntries(tree gitext.Hash) ([]object.TreeEntry, error) {
	if tree.IsZero() {
		return nil, nil
	}
	t, err := object.GetTree(r.st, tree)
	if err != nil {
		return nil, fmt.Errorf("notes tree %s: %w", tree, err)
	}
	return append([]object.TreeEntry(nil), t.Entries...), nil
}

// putNote returns a copy of tree (zero: empty) with hex's note set to blob. It descends into a fan-out folder
// when one exists for the next two digits, as git keeps notes at the fan-out depth their subtree already uses,
// and drops a flat copy of the same note met on the way so the object never has two notes.
func (r *Store) putNote(tree gitext.Hash, hex string, blob gitext.Hash) (gitext.Hash, error) {
	entries, err := r.notesEntries(tree)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	out := entries[:0:0]
	var sub plumbing.Hash
	hasSub := false
	for _, e := range entries {
		switch {
		case e.Mode != filemode.Dir && e.Name == hex:
			continue // replaced below
		case e.Mode == filemode.Dir && len(hex) > 2 && e.Name == hex[:2]:
			sub, hasSub = e.Hash, true
			continue
		}
		out = append(out, e)
	}
	if hasSub {
		h, err := r.putNote(sub, hex[2:], blob)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		out = append(out, object.TreeEntry{Name: hex[:2], Mode: filemode.Dir, Hash: h})
	} else {
		out = append(out, object.TreeEntry{Name: hex, Mode: filemode.Regular, Hash: blob})
	}
	h, err := r.writeTree(out)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("notes: %w", err)
	}
	return h, nil
}

func (r *Store) writeObject(t gitext.ObjectType, data []byte) (gitext.Hash, error) {
	obj := r.st.NewEncodedObject()
	obj.SetType(t)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := r.st.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write %s object: %w", t, err)
	}
	return h, nil
}

func (r *Store) readBlob(h gitext.Hash) ([]byte, error) {
	obj, err := r.st.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("note blob %s: %w", h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("note blob %s: %w", h, err)
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return s != ""
}
