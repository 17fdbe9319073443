//go:build !(linux || darwin)

package gitext

import (
	"errors"
	"time"
)

// configCacheSupported: elsewhere no change time and inode are read, so nothing is cached.
const configCacheSupported = false

func statKey(string) (string, time.Time, bool) { return "", time.Time{}, false }

func readCacheFile(string, int64) ([]byte, error) {
	return nil, errors.New("no configuration cache here")
}
