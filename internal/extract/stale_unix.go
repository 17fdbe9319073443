//go:build unix

package extract

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lockNow takes f's exclusive lock, or fails at once: the marker was just made, so no one else holds it.
func lockNow(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
}

// removeIfAbandoned removes parent/name when it is a staging folder of ours whose writer is gone (staging.go),
// checked through descriptors, following no symlink. It says unproven for a folder of the user's, named like
// one, that has no marker of ours (an extract older than markers, or killed before its marker was locked).
func removeIfAbandoned(parent, name string) (Stale, sweepOutcome) {
	path := filepath.Join(parent, name)
	dfd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return Stale{}, kept
	}
	defer unix.Close(dfd)
	euid := uint32(os.Geteuid())
	var dir unix.Stat_t
	if unix.Fstat(dfd, &dir) != nil || dir.Mode&unix.S_IFMT != unix.S_IFDIR || dir.Uid != euid || dir.Mode&0o7777 != 0o700 {
		return Stale{}, kept
	}
	mfd, err := unix.Openat(dfd, markerName, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return Stale{}, unproven
	}
	defer unix.Close(mfd)
	var mark unix.Stat_t
	if unix.Fstat(mfd, &mark) != nil || mark.Mode&unix.S_IFMT != unix.S_IFREG || mark.Uid != euid || mark.Nlink != 1 {
		return Stale{}, unproven
	}
	buf := make([]byte, len(markerMagic)+64)
	n, err := unix.Pread(mfd, buf, 0)
	if err != nil {
		return Stale{}, unproven
	}
	pid, ours := markerPID(buf[:n])
	if !ours {
		return Stale{}, unproven // not ours, or a writer that has not written it yet: it holds the lock first
	}
	if unix.Flock(mfd, unix.LOCK_EX|unix.LOCK_NB) != nil {
		return Stale{}, kept // its writer is still running
	}
	// With the lock held, the marker must still be in that folder and the folder still at that name: another
	// sweeper may have removed both, and the name may since be someone else's.
	var again, here unix.Stat_t
	if unix.Fstatat(dfd, markerName, &again, unix.AT_SYMLINK_NOFOLLOW) != nil || again.Dev != mark.Dev || again.Ino != mark.Ino ||
		unix.Lstat(path, &here) != nil || here.Dev != dir.Dev || here.Ino != dir.Ino {
		return Stale{}, kept
	}
	if os.RemoveAll(path) != nil {
		return Stale{}, kept
	}
	return Stale{Path: path, PID: pid}, removed
}
