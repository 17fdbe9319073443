//go:build unix

package nofollow

import (
	"io/fs"
	"syscall"
)

// linkCount is the file's number of names, from the stat of the open descriptor.
func linkCount(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 1
}
