package nofollow

import (
	"fmt"
	"os"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// OpenAppend opens the file at path for appending, creating it with perm when missing, as a log of ours must be
// written: a symlink at its name is ErrSymlink, a file with more than one name ErrHardLink, anything but a
// regular file regularfile.ErrNotRegular, so no planted link makes us append to a file elsewhere (a shell
// profile, an SSH config). The folders on the way are resolved as usual.
func OpenAppend(path string, perm os.FileMode) (*os.File, error) {
	before, err := os.Lstat(path)
	switch {
	case err == nil && before.Mode()&os.ModeSymlink != 0:
		return nil, fmt.Errorf("%s %w", path, ErrSymlink)
	case err != nil && !os.IsNotExist(err):
		return nil, err
	}
	f, err := os.OpenFile(path, appendFlags, perm)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", path, err)
	case !st.Mode().IsRegular():
		f.Close()
		return nil, fmt.Errorf("%s is %s: %w", path, regularfile.Kind(st.Mode()), regularfile.ErrNotRegular)
	case linkCount(st) > 1:
		f.Close()
		return nil, fmt.Errorf("%s %w (%d names)", path, ErrHardLink, linkCount(st))
	case before != nil && !os.SameFile(before, st):
		f.Close()
		return nil, fmt.Errorf("%s %w since it was checked", path, ErrReplaced)
	}
	return f, nil
}
