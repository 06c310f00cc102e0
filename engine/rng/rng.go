package rng

import (
	"hash/fnv"
	"time"
)

// Root derives named streams from one seed.
type Root struct {
	seed uint64
}

// New returns a root for seed.
func New(seed uint64) *Root { return &Root{seed: seed} }

// Seed returns the seed the root was made from.
func (r *Root) Seed() uint64 { return r.seed }

// Stream returns a fresh stream for the named subsystem. Asking twice for the
// same name returns two streams with the same sequence; subsystems keep the
// stream they were given.
func (r *Root) Stream(name string) *Stream {
	h := fnv.New64a()
	_, _ = h.Write([]byte(name))
	return &Stream{name: name, state: mix(r.seed ^ mix(h.Sum64()))}
}

// Stream is one subsystem's deterministic sequence.
type Stream struct {
	name string
	// state is the SplitMix64 counter; every draw advances it by one step.
	state uint64
}

// Name returns the subsystem name the stream was derived for.
func (s *Stream) Name() string { return s.name }

const golden = 0x9e3779b97f4a7c15

// mix is SplitMix64's finaliser.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Uint64 returns the next 64 random bits.
func (s *Stream) Uint64() uint64 {
	s.state += golden
	return mix(s.state)
}

// Intn returns a number in [0, n). n must be positive.
func (s *Stream) Intn(n int) int {
	if n <= 0 {
		panic("rng: Intn with n <= 0")
	}
	// Rejection sampling keeps the distribution uniform.
	bound := uint64(n)
	limit := ^uint64(0) - (^uint64(0) % bound)
	for {
		v := s.Uint64()
		if v < limit {
			return int(v % bound)
		}
	}
}

// Float64 returns a number in [0, 1).
func (s *Stream) Float64() float64 {
	return float64(s.Uint64()>>11) / (1 << 53)
}

// Jitter returns base plus a uniformly drawn extra in [0, spread]. A zero or
// negative spread returns base without drawing, so configurations without
// jitter consume no randomness.
func (s *Stream) Jitter(base, spread time.Duration) time.Duration {
	if spread <= 0 {
		return base
	}
	return base + time.Duration(s.Uint64()%uint64(spread+1))
}
