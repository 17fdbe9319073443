//go:build unix

package odb

import (
	"os"
	"syscall"
)

// mapFile maps a pack read-only: pack entries are then plain slices, with no read call per object.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return []byte{}, nil
	}
	return syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) {
	if len(b) > 0 {
		_ = syscall.Munmap(b) // at close: nothing is left to do with a failure
	}
}
