//go:build unix

package lineage

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// errSymlink: the path's last component is a symbolic link.
var errSymlink = errors.New("symbolic link")

// lockFile takes flock(LOCK_EX) on f, waiting for another appender; the lock belongs to the open file
// description, released by the returned function or when f is closed.
func lockFile(f *os.File) (func(), error) {
	var err error
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return func() { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN) }, nil // closing f releases it anyway
}

// openNoFollow opens path with O_NOFOLLOW (a symlink there is errSymlink) and O_NONBLOCK (a FIFO never waits
// for a reader or writer).
func openNoFollow(path string, flag int, mode os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK, mode)
	if errors.Is(err, unix.ELOOP) {
		return nil, errSymlink
	}
	return f, err
}
