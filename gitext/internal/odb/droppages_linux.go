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

// readIndexIDs says FindOffset reads a mapped index's ids with read calls (IndexV2.findByReading): here pack
// and index pages are dropped (dropPages), and looking ids up through the mapping would fault the index back
// into the resident set.
const readIndexIDs = true
