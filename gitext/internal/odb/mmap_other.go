//go:build !unix

package odb

import "os"

// mapFile reads the pack into memory where mmap is not available.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

func unmapFile([]byte) {}

// readIndexIDs says FindOffset reads a mapped index's ids with read calls: here the index is read
// into memory whole, and searching it there costs nothing more.
const readIndexIDs = false
