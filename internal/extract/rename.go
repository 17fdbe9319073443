package extract

import (
	"errors"
	"fmt"
	"os"
)

// renameChecked renames after checking that nothing is at to: a small window remains where RENAME_NOREPLACE
// is not available.
func renameChecked(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("%s: %w", to, ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Rename(from, to)
}
