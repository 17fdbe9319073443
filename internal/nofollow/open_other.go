//go:build !unix

package nofollow

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Without openat and O_NOFOLLOW (Windows, js/wasm) each component is checked with Lstat before it is opened,
// and the opened file must be the one checked. A swap between the two is caught by that comparison; the
// walk itself is path-based, so this is weaker than the unix walk, and documented so.

func openDirPath(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func openAt(dir *os.File, name string, isDir bool, display string) (*os.File, error) {
	p := filepath.Join(dir.Name(), name)
	st, err := os.Lstat(p)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: display, Err: err}
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s %w", display, ErrSymlink)
	}
	if isDir && !st.IsDir() {
		return nil, fmt.Errorf("%s %w", display, ErrNotDir)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: display, Err: err}
	}
	got, err := f.Stat()
	if err != nil || !os.SameFile(st, got) {
		f.Close()
		return nil, fmt.Errorf("%s %w while it was opened", display, ErrReplaced)
	}
	return f, nil
}

func (d *Dir) openBeneath(rel string, isDir bool) (*os.File, error) {
	parts, err := components(rel)
	if err != nil {
		return nil, fmt.Errorf("open beneath %s: %w", d.path, err)
	}
	cur := d.f
	for i, name := range parts {
		last := i == len(parts)-1
		next, err := openAt(cur, name, isDir || !last, d.join(filepath.Join(parts[:i+1]...)))
		if cur != d.f {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// appendFlags open a log of ours for appending; without O_NOFOLLOW, OpenAppend's Lstat before the open and its
// comparison after refuse a symlink or junction at the name.
const appendFlags = os.O_WRONLY | os.O_APPEND | os.O_CREATE
