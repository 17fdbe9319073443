//go:build !unix

package main

import "os"

// childUsage is zero where there is no rusage: the comparisons then report wall time only.
func childUsage(*os.ProcessState) (maxRSS, cpuMicros int64) { return 0, 0 }
