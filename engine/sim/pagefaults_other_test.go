//go:build !linux

package sim_test

// pageFaults returns -1: page faults are counted on Linux only.
func pageFaults() int64 { return -1 }
