//go:build !unix

package regularfile

import "os"

// openNonBlocking is a plain open where O_NONBLOCK does not exist; the regular-file check still applies.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
