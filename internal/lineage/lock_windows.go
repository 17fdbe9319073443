//go:build windows

package lineage

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// errSymlink: the path's last component is a symbolic link or another reparse point (a junction, a mount point).
var errSymlink = errors.New("symbolic link")

// lockFile takes LockFileEx(LOCKFILE_EXCLUSIVE_LOCK) on f, waiting for another appender: the equivalent of
// flock(LOCK_EX). Windows byte-range locks are mandatory, so the locked byte is far beyond any end of file
// (offset 2^63-2): readers and the appends themselves, through other handles, never touch it. It is released by
// the returned function or when f is closed.
func lockFile(f *os.File) (func(), error) {
	h := windows.Handle(f.Fd())
	ol := &windows.Overlapped{Offset: 0xFFFFFFFE, OffsetHigh: 0x7FFFFFFF}
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol); err != nil {
		return nil, err
	}
	return func() { _ = windows.UnlockFileEx(h, 0, 1, 0, ol) }, nil // closing f releases it anyway
}

// openNoFollow is O_NOFOLLOW where there is none: the entry is looked at with Lstat first and refused when it is a
// reparse point (Go reports symbolic links, junctions and mount points as ModeSymlink or ModeIrregular); after
// the open, the file opened must be the one looked at (os.SameFile: volume and file index), and an entry that
// did not exist must be, once created, a plain file at that path. A swap between the look and the open is
// caught by the comparison, never followed silently.
func openNoFollow(path string, flag int, mode os.FileMode) (*os.File, error) {
	before, err := os.Lstat(path)
	existed := err == nil
	if existed && before.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, errSymlink
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	f, err := os.OpenFile(path, flag, mode)
	if err != nil {
		return nil, err
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	after, err := os.Lstat(path)
	if err != nil || after.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 || !os.SameFile(after, opened) ||
		existed && !os.SameFile(before, opened) {
		f.Close()
		return nil, errSymlink
	}
	return f, nil
}
