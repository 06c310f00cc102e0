//go:build !linux

package session

// pageFaults returns -1: page faults are counted on Linux only.
func pageFaults() int64 { return -1 }
