package sim_test

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkFirstTouch measures what a page fault costs on this machine: the
// time to touch each 4 KiB page of a fresh 64 MiB anonymous mapping once
// (us/page), the cost a rollout pays for every page its heap grows into
// (coldMemory). On the 2-core VM the project is developed on it is about
// 11 µs, where bare-metal Linux takes well under 1 µs.
func BenchmarkFirstTouch(b *testing.B) {
	const size, page = 64 << 20, 4096
	var touched time.Duration
	for b.Loop() {
		b.StopTimer()
		m, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			b.Fatal(err)
		}
		// 4 KiB pages, as the Go heap gets them, even where transparent
		// huge pages are always on.
		if err := syscall.Madvise(m, syscall.MADV_NOHUGEPAGE); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		for i := 0; i < size; i += page {
			m[i] = 1
		}
		touched += time.Since(t0)
		b.StopTimer()
		if err := syscall.Munmap(m); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(touched.Nanoseconds())/1e3/float64(b.N*(size/page)), "us/page")
}
