package deployutil

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// hashAlphabet is upstream's SafeEncodeString alphabet: no vowels (no
// accidental words) and no look-alike characters.
const hashAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxNameLength is the DNS-1123 subdomain length limit on object names.
const maxNameLength = 253

// ComputeHash is the pod-template-hash of template with the Deployment's
// collisionCount. It is an FNV-32a sum over the template's JSON encoding
// (encoding/json sorts map keys, so the encoding is deterministic), followed,
// when collisionCount is set, by the count as a little-endian uint32 and four
// zero bytes. The 32-bit sum is written in decimal and each digit is mapped
// into hashAlphabet. Upstream hashes a reflective dump of the Go value
// instead, so the strings differ from a real cluster's; the properties the
// controller relies on (stable, changes with the template or the count) are
// the same.
//
// Worked example: collisionCount nil and 1 give different hashes of the same
// template; both are 8 to 10 characters from hashAlphabet.
func ComputeHash(template *corev1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	// Marshal cannot fail for a PodTemplateSpec: it has no channels, funcs or
	// cyclic pointers, and its custom marshalers do not return errors.
	b, _ := json.Marshal(template)
	_, _ = h.Write(b)
	if collisionCount != nil {
		var extra [8]byte
		binary.LittleEndian.PutUint32(extra[:4], uint32(*collisionCount))
		_, _ = h.Write(extra[:])
	}
	return safeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// safeEncode maps every byte of s to hashAlphabet[byte mod 27].
func safeEncode(s string) string {
	out := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = hashAlphabet[int(s[i])%len(hashAlphabet)]
	}
	return string(out)
}

// GenerateReplicaSetName is "<deploymentName>-<hash>". When that would exceed
// 253 characters, the deployment name is cut to 253-1-len(hash) characters;
// the hash is never cut, and when it alone leaves no room (len(hash) >= 252)
// nothing is cut at all.
//
// Worked examples: ("web", "5d4f8b") -> "web-5d4f8b"; a 250-character name
// with a 10-character hash keeps 242 characters of the name, 253 in total.
func GenerateReplicaSetName(deploymentName, hash string) string {
	keep := maxNameLength - 1 - len(hash)
	if len(deploymentName)+1+len(hash) > maxNameLength && keep > 0 {
		deploymentName = deploymentName[:keep]
	}
	return deploymentName + "-" + hash
}
