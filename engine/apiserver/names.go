package apiserver

import (
	"encoding/binary"
	"encoding/hex"

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
	// Built in a stack buffer: the string conversion is the only copy.
	var buf [maxGeneratedBaseLength + nameSuffixLength]byte
	b := append(buf[:0], base...)
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

// formatUID renders the bits drawUID drew as a UUID: the 16 bytes (hi,
// then lo, big-endian) in lowercase hex, in groups of 8, 4, 4, 4 and 12
// digits ("%08x-%04x-%04x-%04x-%012x" of hi's top 32 bits, its next two
// 16, lo's top 16 and its low 48), written into a stack array.
func formatUID(hi, lo uint64) types.UID {
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[:8], hi)
	binary.BigEndian.PutUint64(raw[8:], lo)
	var b [36]byte
	hex.Encode(b[0:8], raw[0:4])
	hex.Encode(b[9:13], raw[4:6])
	hex.Encode(b[14:18], raw[6:8])
	hex.Encode(b[19:23], raw[8:10])
	hex.Encode(b[24:36], raw[10:16])
	b[8], b[13], b[18], b[23] = '-', '-', '-', '-'
	return types.UID(b[:])
}
