//go:build unix && !linux

package nofollow

import "os"

// openat2 is Linux's; elsewhere the per-component walk does the same job.
func openat2(dir *os.File, rel string, isDir bool, display string) (*os.File, bool) {
	return nil, false
}
