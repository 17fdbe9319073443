//go:build unix

package nofollow

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// baseFlags: never follow a last-component symlink, never wait for a FIFO's writer, never adopt a terminal, and
// never leak the descriptor into a child process.
const baseFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC

func openDirPath(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOTDIR) {
		return nil, fmt.Errorf("%s %w", path, ErrNotDir)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open folder", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openAt opens one component name beneath dir. A symlink there is ErrSymlink: O_NOFOLLOW fails on it (ELOOP on
// Linux and macOS, EMLINK on FreeBSD, ENOTDIR with O_DIRECTORY on some systems), so the failure is told apart by
// looking at the entry itself without following it.
func openAt(dir *os.File, name string, isDir bool, display string) (*os.File, error) {
	flags := baseFlags
	if isDir {
		flags |= unix.O_DIRECTORY
	}
	fd, err := unix.Openat(int(dir.Fd()), name, flags, 0)
	if err != nil {
		var st unix.Stat_t
		if unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return nil, fmt.Errorf("%s %w", display, ErrSymlink)
		}
		if isDir && errors.Is(err, unix.ENOTDIR) {
			return nil, fmt.Errorf("%s %w", display, ErrNotDir)
		}
		return nil, &os.PathError{Op: "open", Path: display, Err: err}
	}
	return os.NewFile(uintptr(fd), display), nil
}

// openBeneath opens rel beneath d: with openat2 where the kernel has it, else one component at a time.
func (d *Dir) openBeneath(rel string, isDir bool) (*os.File, error) {
	parts, err := components(rel)
	if err != nil {
		return nil, fmt.Errorf("open beneath %s: %w", d.path, err)
	}
	if !d.perComponent && len(parts) > 1 {
		if f, ok := openat2(d.f, rel, isDir, d.join(rel)); ok {
			return f, nil
		}
	}
	cur := d.f
	for i, name := range parts {
		last := i == len(parts)-1
		next, err := openAt(cur, name, isDir || !last, d.join(joinSlash(parts[:i+1])))
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

func joinSlash(parts []string) string {
	s := parts[0]
	for _, p := range parts[1:] {
		s += "/" + p
	}
	return s
}

// appendFlags open a log of ours for appending: created when missing, never through a symlink at its name, never
// waiting on a FIFO, never leaked into a child process.
const appendFlags = unix.O_WRONLY | unix.O_APPEND | unix.O_CREAT | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC
