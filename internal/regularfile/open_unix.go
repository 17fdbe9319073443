//go:build unix

package regularfile

import (
	"errors"
	"os"
	"syscall"
)

// openNonBlocking opens with O_NONBLOCK so that opening a FIFO returns at once instead of waiting for a writer,
// and O_NOCTTY so that a terminal device never becomes the controlling terminal. Reads from a regular file
// ignore O_NONBLOCK.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}

// openNoFollow is openNonBlocking that also refuses a symlink at path itself (O_NOFOLLOW: ELOOP).
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, errSymlink
	}
	return f, err
}
