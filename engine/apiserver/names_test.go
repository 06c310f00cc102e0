package apiserver

import (
	"fmt"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/rng"
)

// TestFormatUIDIsTheUUIDLayout: formatUID writes what the printf layout
// "%08x-%04x-%04x-%04x-%012x" of its five bit groups does, for edge values
// and for drawn ones.
func TestFormatUIDIsTheUUIDLayout(t *testing.T) {
	r := rng.New(7).Stream("uids")
	pairs := [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {0x0123456789abcdef, 0xfedcba9876543210}}
	for range 1000 {
		pairs = append(pairs, [2]uint64{r.Uint64(), r.Uint64()})
	}
	for _, p := range pairs {
		hi, lo := p[0], p[1]
		want := fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, (hi>>16)&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
		if got := string(formatUID(hi, lo)); got != want {
			t.Fatalf("formatUID(%#x, %#x) = %s, want %s", hi, lo, got, want)
		}
	}
}
