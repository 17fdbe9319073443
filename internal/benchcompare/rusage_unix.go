//go:build unix

package main

import "syscall"

// childrenUsage is getrusage(RUSAGE_CHILDREN): the peak RSS (KiB on Linux) of the largest child waited for, and
// the user plus system CPU time of all of them in microseconds.
func childrenUsage() (maxRSS, cpuMicros int64) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return int64(ru.Maxrss), ru.Utime.Sec*1e6 + int64(ru.Utime.Usec) + ru.Stime.Sec*1e6 + int64(ru.Stime.Usec)
}
