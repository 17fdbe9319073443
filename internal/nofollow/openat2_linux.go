package nofollow

import (
	"os"

	"golang.org/x/sys/unix"
)

// openat2 resolves all of rel in the kernel, refusing any symlink (RESOLVE_NO_SYMLINKS) and any step outside
// dir (RESOLVE_BENEATH). ok is false when the call is unavailable (kernels before 5.6, seccomp filters that
// answer ENOSYS or EPERM) or failed: the per-component walk then runs and gives the precise error, naming the
// component that is a symlink or missing.
func openat2(dir *os.File, rel string, isDir bool, display string) (*os.File, bool) {
	flags := uint64(baseFlags)
	if isDir {
		flags |= unix.O_DIRECTORY
	}
	fd, err := unix.Openat2(int(dir.Fd()), rel, &unix.OpenHow{Flags: flags,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS})
	if err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), display), true
}
