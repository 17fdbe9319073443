//go:build !linux

package odb

import "time"

// threadCPU is not measured here (see the linux version): the benchmark reports wall time only.
func threadCPU() time.Duration { return 0 }
