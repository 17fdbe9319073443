//go:build unix

package main

import (
	"os"
	"syscall"
)

// childUsage is wait4's rusage of a child that has exited: its peak RSS (KiB on Linux), counting the children it
// waited for, and its user plus system CPU time with theirs, in microseconds.
func childUsage(ps *os.ProcessState) (maxRSS, cpuMicros int64) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0
	}
	return int64(ru.Maxrss), ru.Utime.Sec*1e6 + int64(ru.Utime.Usec) + ru.Stime.Sec*1e6 + int64(ru.Stime.Usec)
}
