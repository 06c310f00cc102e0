package sim_test

import "syscall"

// pageFaults returns the minor page faults of this process so far, or -1
// when the system does not say.
func pageFaults() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return ru.Minflt
}
