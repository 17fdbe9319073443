// Package atomicfile writes files so that a reader sees either the old content or the whole new content,
// never a half-written file: temp file in the destination's folder, fsync, rename, fsync the folder.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is a pending write. Commit makes it visible at its path; Abort (safe after Commit) removes the temp file.
type File struct {
	*os.File
	path string
	mode os.FileMode
	done bool
}

// Create starts a write of path. The temp file lives beside path so the final rename cannot cross file systems.
func Create(path string, mode os.FileMode) (*File, error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("create temp file in %s: %w", dir, err)
	}
	return &File{File: f, path: path, mode: mode}, nil
}

// Commit fsyncs, sets the mode and renames the temp file over path. With noReplace, an existing path is an error
// and is left alone.
func (f *File) Commit(noReplace bool) error {
	if f.done {
		return fmt.Errorf("write %s: already finished", f.path)
	}
	f.done = true
	tmp := f.Name()
	fail := func(err error) error {
		f.File.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Chmod(f.mode); err != nil {
		return fail(fmt.Errorf("chmod %s: %w", tmp, err))
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("fsync %s: %w", tmp, err))
	}
	if err := f.File.Close(); err != nil {
		return fail(fmt.Errorf("close %s: %w", tmp, err))
	}
	if noReplace {
		// A hard link fails with EEXIST when path exists, so two writers cannot both win.
		if err := os.Link(tmp, f.path); err != nil {
			os.Remove(tmp)
			if os.IsExist(err) {
				return fmt.Errorf("%s already exists: not overwriting it; choose another path or remove it", f.path)
			}
			return fmt.Errorf("write %s: %w", f.path, err)
		}
		os.Remove(tmp)
	} else if err := os.Rename(tmp, f.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rename %s to %s: %w", tmp, f.path, err)
	}
	syncDir(filepath.Dir(f.path))
	return nil
}

// Abort discards the write. It is a no-op after Commit, so `defer f.Abort()` is always safe.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.Name())
}

// WriteFile writes data to path atomically, replacing any existing file.
func WriteFile(path string, data []byte, mode os.FileMode) error {
	return write(path, data, mode, false)
}

// WriteNew writes data to path atomically; path must not exist (a key, a card: never overwritten).
func WriteNew(path string, data []byte, mode os.FileMode) error { return write(path, data, mode, true) }

func write(path string, data []byte, mode os.FileMode, noReplace bool) error {
	return Write(path, mode, noReplace, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write streams content from fill into path atomically. On any error nothing is left behind.
func Write(path string, mode os.FileMode, noReplace bool, fill func(io.Writer) error) error {
	f, err := Create(path, mode)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := fill(f); err != nil {
		return err
	}
	return f.Commit(noReplace)
}

// syncDir makes the rename durable. Errors are ignored: some file systems refuse fsync on folders.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
