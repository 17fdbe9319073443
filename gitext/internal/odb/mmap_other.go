//go:build !unix

package odb

import "os"

// mapFile reads the pack into memory where mmap is not available.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

func unmapFile([]byte) {}
