//go:build !unix

package discover

import "github.com/git-bernstein/git-bernstein/internal/regularfile"

// readIndexFile reads the index where mmap is not available; release has nothing to do.
func readIndexFile(path string) (data []byte, release func(), err error) {
	data, err = regularfile.ReadFile(path, "ticket index", 1<<40)
	return data, func() {}, err
}
