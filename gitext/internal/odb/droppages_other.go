//go:build !linux

package odb

// dropPages does nothing where the syscall package has no madvise: the pages stay resident.
func dropPages([]byte) {}
