//go:build !unix

package discover

import "github.com/git-bernstein/git-bernstein/internal/regularfile"

// readIndexFile reads the index where O_NOFOLLOW is not available.
func readIndexFile(path string) ([]byte, error) {
	return regularfile.ReadFile(path, "ticket index", 1<<30)
}
