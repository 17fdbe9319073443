//go:build !unix

package discover

import "os"

// readIndexFile reads the index where mmap is not available; release has nothing to do.
func readIndexFile(path string) (data []byte, release func(), err error) {
	data, err = os.ReadFile(path)
	return data, func() {}, err
}
