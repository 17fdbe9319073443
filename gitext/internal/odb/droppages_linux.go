package odb

import "syscall"

// dropPages tells the kernel the process no longer needs the pages of b, a read-only file mapping:
// they leave its resident set, and a later read faults them in again from the page cache (the file
// is not read again).
func dropPages(b []byte) {
	if len(b) > 0 {
		// Advice only: a failure leaves the pages resident.
		_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
	}
}
