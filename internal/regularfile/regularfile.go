// Package regularfile opens the files a user names as inputs (archives, signatures, cards, stores) so that no
// input can hang or exhaust the process: the open never blocks (a FIFO with no writer would wait forever), the
// opened descriptor must be a regular file (not a FIFO, device, socket or directory), and reads are bounded.
//
// The path is followed as the user wrote it (a symlink the user named is their choice); what is checked is the
// file actually opened, through its descriptor, so a swap between a check and the open cannot slip past.
package regularfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by every error for an input that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by ReadFile's error for a file larger than its limit.
var ErrTooLarge = errors.New("larger than the limit")

// Open opens path for reading without blocking and checks, on the open descriptor, that it is a regular file.
// what names the input in errors ("archive", "signature", "card").
func Open(path, what string) (*os.File, fs.FileInfo, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == path {
			err = pe.Err // "open archive X: no such file or directory", not "open archive X: open X: …"
		}
		return nil, nil, fmt.Errorf("open %s %s: %w", what, path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s %s: %w", what, path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s %s is %s: %w; give the file itself", what, path, Kind(st.Mode()), ErrNotRegular)
	}
	return f, st, nil
}

// errSymlink is openNoFollow's error for a symlink at the path.
var errSymlink = fmt.Errorf("it is a symlink: %w", ErrNotRegular)

// OpenOwn opens a file of our own making (a cache, an index under .git) as such a file must be opened: not
// through a symlink at path, without waiting on a FIFO, and only when the descriptor is a regular file. Its
// errors for another kind of file say "it is a symlink", "it is a FIFO (named pipe)" and so on, and wrap
// ErrNotRegular; the caller names the file.
func OpenOwn(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("it is %s: %w", Kind(st.Mode()), ErrNotRegular)
	}
	return f, st, nil
}

// ReadFile reads a whole regular file of at most max bytes. A larger file is an error wrapping ErrTooLarge,
// found by reading (a file that grows after the stat is still bounded).
func ReadFile(path, what string, max int64) ([]byte, error) {
	f, _, err := Open(path, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", what, path, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s %s is larger than %d bytes: %w", what, path, max, ErrTooLarge)
	}
	return data, nil
}

// Kind names a file mode's type for messages: "a FIFO", "a directory", ….
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}
