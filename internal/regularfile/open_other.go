//go:build !unix

package regularfile

import "os"

// openNonBlocking is a plain open where O_NONBLOCK does not exist; the regular-file check still applies.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

// openNoFollow refuses a symlink at path by looking first, where O_NOFOLLOW does not exist (a swap between the
// look and the open is not caught here).
func openNoFollow(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
		return nil, errSymlink
	}
	return os.Open(path)
}
