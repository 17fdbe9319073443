//go:build !unix

package extract

import (
	"errors"
	"io/fs"
	"os"
)

// noFollow is 0 where O_NOFOLLOW does not exist (Windows): os.Root refuses a name that leaves the root, O_EXCL
// refuses any existing entry, and checkCreated then holds the new file to the entry at its name.
const noFollow = 0

// checkCreated checks, after an O_CREATE|O_EXCL open of name beneath root, that the entry at name is a plain
// file, no reparse point (symbolic link, junction), and the very file opened (os.SameFile: volume and file
// index), so a link planted in the staging folder is never written through unnoticed.
func checkCreated(root *os.Root, name string, f *os.File) error {
	entry, err := root.Lstat(name)
	if err != nil {
		return err
	}
	opened, err := f.Stat()
	if err != nil {
		return err
	}
	if !entry.Mode().IsRegular() || entry.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 || !os.SameFile(entry, opened) {
		return errors.New("the new file is not a plain file at its name (a link or reparse point was put there)")
	}
	return nil
}
