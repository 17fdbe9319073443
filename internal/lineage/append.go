package lineage

import (
	"github.com/git-bernstein/git-bernstein/internal/regularfile"

	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Append records body as the first body of a child and a parent ref pointing at it, the way upstream's
// LineageV2Store.append does: under flock(LOCK_EX) on parent.jsonl (the lock Python's fcntl.flock takes, so
// both can write one store), the child line is written and fsynced before the parent line. A crash between
// the two leaves an orphan child that Verify reports. The caller fills the semantic fields; Append fills
// child_sha, prev_hmac and hmac and returns the records as written.
//
// As upstream, a body whose content address already exists is chained onto that child file.
func (s *Store) Append(ref ParentRef, body ChildBody) (ParentRef, ChildBody, error) {
	body.PrevHMAC, body.HMAC = "", ""
	sha, err := body.ChildSHA()
	if err != nil {
		return ParentRef{}, ChildBody{}, fmt.Errorf("child body: %w", err)
	}
	ref.ChildSHA, ref.PrevHMAC, ref.HMAC = sha, "", ""
	if err := body.validate(); err != nil {
		return ParentRef{}, ChildBody{}, fmt.Errorf("child body: %w", err)
	}
	if err := ref.validate(); err != nil {
		return ParentRef{}, ChildBody{}, fmt.Errorf("parent ref: %w", err)
	}
	childPath, err := s.ChildPath(sha)
	if err != nil {
		return ParentRef{}, ChildBody{}, err
	}
	unlock, err := s.lock()
	if err != nil {
		return ParentRef{}, ChildBody{}, err
	}
	defer unlock()

	// Read both chain tips before writing anything, so a store we refuse to extend gets no orphan either.
	prevParent, _, err := chainTip(s.ParentPath())
	if err != nil {
		return ParentRef{}, ChildBody{}, err
	}
	prevChild, _, err := chainTip(childPath)
	if err != nil {
		return ParentRef{}, ChildBody{}, err
	}
	body.PrevHMAC = prevChild
	if body.HMAC, err = body.ComputeHMAC(s.Key.Bytes); err != nil {
		return ParentRef{}, ChildBody{}, err
	}
	if err := appendLine(childPath, body.Canonical, 0o666); err != nil {
		return ParentRef{}, ChildBody{}, err
	}
	ref.PrevHMAC = prevParent
	if ref.HMAC, err = ref.ComputeHMAC(s.Key.Bytes); err != nil {
		return ParentRef{}, ChildBody{}, err
	}
	if err := appendLine(s.ParentPath(), ref.Canonical, 0o600); err != nil {
		return ParentRef{}, ChildBody{}, fmt.Errorf("%w (children/%s.jsonl is now an orphan: remove it or append again)", err, sha[len("sha256:"):])
	}
	return ref, body, nil
}

// AppendBody adds one more body to an existing child file (a child run's progress and end events); the parent
// timeline is untouched. The store numbers it: Seq becomes the count of bodies already in the file, decided
// under the lock so concurrent writers cannot pick the same number.
func (s *Store) AppendBody(childSHA string, body ChildBody) (ChildBody, error) {
	childPath, err := s.ChildPath(childSHA)
	if err != nil {
		return ChildBody{}, err
	}
	unlock, err := s.lock()
	if err != nil {
		return ChildBody{}, err
	}
	defer unlock()
	if _, err := os.Stat(childPath); errors.Is(err, fs.ErrNotExist) {
		return ChildBody{}, fmt.Errorf("no child file %s for %s: append a new child without --child-sha first", childPath, childSHA)
	}
	prev, count, err := chainTip(childPath)
	if err != nil {
		return ChildBody{}, err
	}
	body.Seq, body.PrevHMAC, body.HMAC = int64(count), prev, ""
	if err := body.validate(); err != nil {
		return ChildBody{}, fmt.Errorf("child body: %w", err)
	}
	if body.HMAC, err = body.ComputeHMAC(s.Key.Bytes); err != nil {
		return ChildBody{}, err
	}
	if err := appendLine(childPath, body.Canonical, 0o666); err != nil {
		return ChildBody{}, err
	}
	return body, nil
}

// lock takes an exclusive lock on parent.jsonl (lockFile: flock on unix, LockFileEx on Windows), creating the
// store folders and the file as upstream does. The lock belongs to the open file, so every call opens its own.
func (s *Store) lock() (func(), error) {
	if err := os.MkdirAll(filepath.Join(s.Root, childrenDir), 0o755); err != nil {
		return nil, fmt.Errorf("create lineage store %s: %w", s.Root, err)
	}
	f, err := openStoreFile(s.ParentPath(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", s.ParentPath(), err)
	}
	return func() {
		unlock()
		f.Close()
	}, nil
}

// chainTip is the hmac of the last line of a JSONL chain ("" for a missing or empty file) and its record count.
// Upstream chains from "" when the last line is unreadable, which forks the chain; we refuse instead.
func chainTip(path string) (string, int, error) {
	l, err := readLines(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", 0, nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("read %s: %w", path, err)
	}
	if l.torn {
		return "", 0, fmt.Errorf("%s ends with a torn line (a crash during an earlier append): run `git bernstein lineage v2 verify` and apply its repair before appending", path)
	}
	if len(l.recs) == 0 {
		return "", 0, nil
	}
	m, err := decodeObject(l.recs[len(l.recs)-1])
	if err == nil {
		if h, ok := m["hmac"].(string); ok {
			return h, len(l.recs), nil
		}
	}
	return "", 0, fmt.Errorf("last record of %s is unreadable, so nothing can chain from it: run `git bernstein lineage v2 verify`", path)
}

// appendLine writes one canonical line with a single write and fsyncs it. A new file's folder entry is fsynced
// too, or a crash could lose the file that a later parent line points at.
func appendLine(path string, canonical func() ([]byte, error), mode os.FileMode) error {
	line, err := canonical()
	if err != nil {
		return fmt.Errorf("encode record for %s: %w", path, err)
	}
	_, statErr := os.Lstat(path)
	f, err := openStoreFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(bytes.Clone(line), '\n')); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("fsync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if d, err := os.Open(filepath.Dir(path)); err == nil {
			_ = d.Sync() // best effort, as atomicfile's: some file systems refuse fsync on folders
			d.Close()
		}
	}
	return nil
}

// openStoreFile opens a store file for writing the way the readers read it: never through a symlink (openNoFollow:
// O_NOFOLLOW on unix; on Windows no reparse point, the opened file the one checked), never blocking (a FIFO put
// in the store would hold an append forever), and only when it is a regular file.
func openStoreFile(path string, flag int, mode os.FileMode) (*os.File, error) {
	f, err := openNoFollow(path, flag, mode)
	if errors.Is(err, errSymlink) {
		return nil, fmt.Errorf("open %s: it is a symbolic link; the store's files are never written through one", path)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is %s, not a regular file: %w; remove it and append again", path, regularfile.Kind(st.Mode()), regularfile.ErrNotRegular)
	}
	return f, nil
}
