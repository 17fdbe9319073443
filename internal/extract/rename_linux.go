//go:build linux

package extract

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames from to to, failing if to exists (a plain rename would replace an empty folder that
// appeared there since the check). File systems without RENAME_NOREPLACE get a check and a plain rename.
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return renameChecked(from, to)
	}
	if errors.Is(err, unix.EEXIST) {
		return fmt.Errorf("%s: %w", to, ErrExists)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}
