package trace

import "github.com/rolloutlab/rolloutlab/engine/internal/inplace"

const (
	// stringChunkSize is the number of strings per chunk of the string
	// table.
	stringChunkSize = 4096
	// internSets is the number of sets of the intern cache (a power of
	// two); each set has two ways.
	internSets = 2048
)

// internCache remembers where recently used strings are in the string
// table. It is two-way set-associative with least-recently-used
// replacement: way 0 of a set holds the string used last of the two, so
// a name every record repeats (a source, a verb) stays while the names of
// objects pass through the other way. Entries are 1 + a table index, 0 for
// none. Unlike a map, it is part of the trace's state (a checkpoint copies
// it), so a restored and replayed trace holds exactly the table of a trace
// recorded straight through.
type internCache [2 * internSets]uint32

// stringAt returns entry i of the string table.
func (r *Recorder) stringAt(i int) string {
	return r.strs[i/stringChunkSize][i%stringChunkSize]
}

// addString appends s to the string table and returns its index.
func (r *Recorder) addString(s string) int {
	r.strs = inplace.AppendChunk(r.strs, stringChunkSize, s)
	r.nstr++
	return r.nstr - 1
}

// intern returns the index of s (not "") in the string table and whether
// it was added: a string the cache does not name is added again (a
// duplicate entry, never a wrong one).
func (r *Recorder) intern(s string) (i int, added bool) {
	set := r.slots[2*(hashString(s)&(internSets-1)):][:2]
	if v := set[0]; v != 0 && r.stringAt(int(v-1)) == s {
		return int(v - 1), false
	}
	if v := set[1]; v != 0 && r.stringAt(int(v-1)) == s {
		set[0], set[1] = v, set[0]
		return int(v - 1), false
	}
	i = r.addString(s)
	set[0], set[1] = uint32(i+1), set[0]
	return i, true
}

// hashString hashes s's length, first byte and last eight bytes: fixed, so
// that interning is deterministic, and short, because hashing whole names
// and messages cost more than the rest of recording. The names a trace
// repeats differ in their last characters (generated suffixes); strings
// that share their ends and length share a set, and interning them costs
// at worst a duplicate entry.
func hashString(s string) uint32 {
	n := len(s)
	var x uint64
	if n >= 8 {
		x = uint64(s[n-8])<<56 | uint64(s[n-7])<<48 | uint64(s[n-6])<<40 | uint64(s[n-5])<<32 |
			uint64(s[n-4])<<24 | uint64(s[n-3])<<16 | uint64(s[n-2])<<8 | uint64(s[n-1])
	} else {
		for i := 0; i < n; i++ {
			x = x<<8 | uint64(s[i])
		}
	}
	if n > 0 {
		x ^= uint64(s[0])<<7 ^ uint64(n)<<17
	}
	return uint32((x * 0x9e3779b97f4a7c15) >> 40)
}
