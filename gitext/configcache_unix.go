//go:build linux || darwin

package gitext

import (
	"errors"
	"fmt"
	"io"
	"time"

	"golang.org/x/sys/unix"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// configCacheSupported: the cache trusts a file only by its change time (ctime), which no one can set back,
// and its inode; both are read here, on the systems whose stat names them alike.
const configCacheSupported = true

// statKey names a file's identity and content as a stat sees them (device, inode, mode, owner, size, modified
// and changed times; "absent" for a missing file) and when it last changed; ok is false when it cannot be
// stat'ed. The path is followed: git reads through a symlinked ~/.gitconfig, and a re-pointed link gives
// another inode.
func statKey(path string) (key string, changed time.Time, ok bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return "absent", time.Time{}, true
		}
		return "", time.Time{}, false
	}
	mtime := time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
	ctime := time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	key = fmt.Sprintf("%d %d %o %d %d %d %d", uint64(st.Dev), uint64(st.Ino), uint32(st.Mode), st.Uid,
		st.Size, mtime.UnixNano(), ctime.UnixNano())
	if mtime.After(ctime) {
		return key, mtime, true
	}
	return key, ctime, true
}

// readCacheFile reads a regular file of at most limit bytes without following a symlink at path.
func readCacheFile(path string, limit int64) ([]byte, error) {
	f, st, err := regularfile.OpenOwn(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}
