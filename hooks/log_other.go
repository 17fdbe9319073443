//go:build !unix

package hooks

import "os"

// noFollow is 0 where O_NOFOLLOW does not exist (Windows); AppendLog's Lstat before the open still refuses a
// symlink or junction at the log's name.
const noFollow = 0

// hardLinked is false where the link count is not read.
func hardLinked(os.FileInfo) bool { return false }
