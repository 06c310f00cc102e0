package apiserver

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
)

// nameAlphabet is the alphabet of generated-name suffixes: no vowels (so no
// words) and no look-alike characters.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

const (
	// nameSuffixLength is the number of random characters appended to
	// metadata.generateName.
	nameSuffixLength = 5
	// maxGeneratedBaseLength keeps a generated name within 63 characters:
	// the base is truncated to 63-5 characters.
	maxGeneratedBaseLength = 63 - nameSuffixLength
	// generateNameAttempts bounds the retries when a generated name is
	// already taken.
	generateNameAttempts = 8
)

// generateName appends a random suffix to base (truncated to 58 chars).
func (s *Server) generateName(base string) string {
	if len(base) > maxGeneratedBaseLength {
		base = base[:maxGeneratedBaseLength]
	}
	b := make([]byte, 0, len(base)+nameSuffixLength)
	b = append(b, base...)
	for i := 0; i < nameSuffixLength; i++ {
		b = append(b, nameAlphabet[s.names.Intn(len(nameAlphabet))])
	}
	return string(b)
}

// newUID draws a UID formatted like a random (version 4) UUID.
func (s *Server) newUID() types.UID { return formatUID(s.drawUID()) }

// drawUID draws the 128 bits of a random (version 4) UUID.
func (s *Server) drawUID() (hi, lo uint64) {
	hi, lo = s.names.Uint64(), s.names.Uint64()
	hi = hi&^(0xf<<12) | 0x4<<12 // version 4
	lo = lo&^(0x3<<62) | 0x2<<62 // RFC 4122 variant
	return hi, lo
}

// formatUID renders the bits drawUID drew as a UUID.
func formatUID(hi, lo uint64) types.UID {
	return types.UID(fmt.Sprintf("%08x-%04x-%04x-%04x-%012x",
		hi>>32, (hi>>16)&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff))
}
