//go:build !unix

package nofollow

import "io/fs"

// linkCount is 1 where the link count is not available.
func linkCount(fs.FileInfo) uint64 { return 1 }
