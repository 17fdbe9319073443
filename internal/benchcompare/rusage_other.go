//go:build !unix

package main

// childrenUsage is zero where there is no getrusage: the comparisons then report wall time only.
func childrenUsage() (maxRSS, cpuMicros int64) { return 0, 0 }
