//go:build unix

package hooks

import (
	"os"
	"syscall"
)

// noFollow makes the log's open refuse a symlink at its name.
const noFollow = syscall.O_NOFOLLOW

// hardLinked says whether the file has more than one name.
func hardLinked(st os.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && s.Nlink > 1
}
