package nofollow

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// ErrSymlink is wrapped by every error for a symlink met on the way: symlinks are never followed.
var ErrSymlink = errors.New("is a symbolic link; symlinks are never followed")

// ErrNotDir is wrapped by the error for a folder wanted where something else is.
var ErrNotDir = errors.New("is not a folder")

// ErrHardLink is wrapped by Open's error for a regular file with more than one name (link count above 1). A hard
// link is a symlink that cannot be seen: whoever can write the folder can link a file the user can read (an SSH key
// on the same file system) into it, and reading it by its name here would pack that file.
var ErrHardLink = errors.New("has other names (hard links); a file with more than one name is never read")

// ErrReplaced is wrapped by Reopen's error for a file that is no longer the one first opened.
var ErrReplaced = errors.New("was replaced by another file")

// Dir is a folder opened without following a symlink, and the path it was reached by (for messages).
type Dir struct {
	f    *os.File
	path string
	// perComponent skips openat2 and walks one component at a time, as systems without openat2 do; tests set it
	// to check that walk on Linux too.
	perComponent bool
}

// OpenDir opens the folder at path. The components before the last are resolved as usual; the last must be a
// folder itself, not a symlink to one (ErrSymlink).
func OpenDir(path string) (*Dir, error) {
	clean := filepath.Clean(path)
	parent, name := filepath.Split(clean)
	if name == "" || name == "." || name == ".." {
		// "/" or "..": nothing of its own to check; open it as given.
		f, err := openDirPath(clean)
		if err != nil {
			return nil, err
		}
		return &Dir{f: f, path: path}, nil
	}
	if parent == "" {
		parent = "."
	}
	pf, err := openDirPath(parent)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	f, err := openAt(pf, name, true, path)
	if err != nil {
		return nil, err
	}
	return &Dir{f: f, path: path}, nil
}

// Path is the path the folder was reached by.
func (d *Dir) Path() string { return d.path }

// Close closes the folder's descriptor.
func (d *Dir) Close() error { return d.f.Close() }

// ReadDir lists the folder's entries, sorted by name. Call it once per Dir: the listing reads the descriptor.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	ents, err := d.f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("read folder %s: %w", d.path, err)
	}
	sortEntries(ents)
	return ents, nil
}

// OpenDir opens the folder rel beneath d ("traces", "lineage/v2") without following a symlink on the way.
func (d *Dir) OpenDir(rel string) (*Dir, error) {
	f, err := d.openBeneath(rel, true)
	if err != nil {
		return nil, err
	}
	return &Dir{f: f, path: d.join(rel), perComponent: d.perComponent}, nil
}

// Open opens the regular file rel beneath d for reading, without following a symlink on the way and without
// blocking. What is not a regular file is an error wrapping regularfile.ErrNotRegular.
func (d *Dir) Open(rel string) (*os.File, fs.FileInfo, error) {
	f, err := d.openBeneath(rel, false)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s: %w", d.join(rel), err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is %s: %w", d.join(rel), regularfile.Kind(st.Mode()), regularfile.ErrNotRegular)
	}
	if n := linkCount(st); n > 1 {
		f.Close()
		return nil, nil, fmt.Errorf("%s %w (%d names)", d.join(rel), ErrHardLink, n)
	}
	return f, st, nil
}

// Reopen opens rel again and checks that it is the file want describes (same device and inode, from the first
// Open's FileInfo). A file swapped for another, or for a symlink, since then is an error naming it.
func (d *Dir) Reopen(rel string, want fs.FileInfo) (*os.File, error) {
	f, st, err := d.Open(rel)
	if err != nil {
		if errors.Is(err, ErrSymlink) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, regularfile.ErrNotRegular) {
			return nil, fmt.Errorf("%w (%s %w since it was chosen; run again, and find out who changes it)", err, d.join(rel), ErrReplaced)
		}
		return nil, err
	}
	if !os.SameFile(st, want) {
		f.Close()
		return nil, fmt.Errorf("%s %w since it was chosen (another device and inode); run again, and find out who changes it", d.join(rel), ErrReplaced)
	}
	return f, nil
}

// join names rel beneath d in messages.
func (d *Dir) join(rel string) string { return filepath.Join(d.path, filepath.FromSlash(rel)) }

// components splits a relative slash path; "", ".", ".." and absolute paths are refused, so nothing opened
// through a Dir can be outside it.
func components(rel string) ([]string, error) {
	if rel == "" || path.IsAbs(rel) || path.Clean(rel) != rel || rel == "." || strings.HasPrefix(rel, "../") || rel == ".." {
		return nil, fmt.Errorf("%q is not a relative path inside the folder", rel)
	}
	return strings.Split(rel, "/"), nil
}

func sortEntries(ents []fs.DirEntry) {
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}
