//go:build !linux

package odb

// dropPages does nothing where the syscall package has no madvise: the pages stay resident.
func dropPages([]byte) {}

// readIndexIDs is false where no page is dropped: ids are looked up in the mapped (or read) index directly,
// without a read call each.
const readIndexIDs = false
