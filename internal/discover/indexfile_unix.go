//go:build unix

package discover

import (
	"os"
	"syscall"
)

// readIndexFile maps the index read-only rather than reading it: the file is megabytes that the page cache
// already holds, and copying them into fresh memory cost more page faults than the decoding itself. The mapping
// stays valid when another run replaces the file (atomicfile renames a new file over it; this one's pages stay).
// release unmaps it; nothing may use the bytes after (loadIndex copies out what it keeps).
func readIndexFile(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
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
