// Package rng provides the engine's seeded randomness.
//
// One Root is created from the scenario's seed. Each subsystem asks the root
// for its own Stream by name ("names", "kubelet", "informer", ...). A stream's
// sequence depends only on the seed and the name, so a new draw in one
// subsystem never shifts the numbers another subsystem sees. The generator is
// SplitMix64, implemented here so the sequence is identical on every platform
// and Go version; it is not suitable for cryptography and does not need to be.
package rng
