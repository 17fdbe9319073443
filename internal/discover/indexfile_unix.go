//go:build unix

package discover

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// readIndexFile maps the index read-only rather than reading it: the file is megabytes that the page cache
// already holds, and copying them into fresh memory cost more page faults than the decoding itself. The mapping
// stays valid when another run replaces the file (atomicfile renames a new file over it; this one's pages stay).
// release unmaps it; nothing may use the bytes after (loadIndex copies out what it keeps).
//
// The file is opened as a cache of ours must be: not through a symlink (O_NOFOLLOW), without waiting on a FIFO
// (O_NONBLOCK), and only if the descriptor is a regular file.
func readIndexFile(path string) (data []byte, release func(), err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, nil, fmt.Errorf("it is a symlink: %w", regularfile.ErrNotRegular)
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("it is %s: %w", regularfile.Kind(st.Mode()), regularfile.ErrNotRegular)
	}
	if st.Size() == 0 || st.Size() != int64(int(st.Size())) {
		return []byte{}, func() {}, nil // empty (or beyond the address space): not an index, rebuilt
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
