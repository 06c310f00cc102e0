package workqueue

import (
	"slices"
	"strconv"
)

// maxReasons bounds the reasons kept per dirty key, so a key dirtied by a
// thousand pod events does not carry a thousand strings. Further distinct
// reasons are only counted.
const maxReasons = 16

// pending collects the reasons a dirty key was added for.
type pending struct {
	// reasons are distinct and non-empty, in arrival order; at most
	// maxReasons of them.
	reasons []string
	// omitted counts distinct reasons dropped after maxReasons was reached
	// (a dropped reason given twice is counted twice).
	omitted int
}

// note records reason unless it is empty or already known.
func (p *pending) note(reason string) {
	if reason == "" {
		return
	}
	for _, r := range p.reasons {
		if r == reason {
			return
		}
	}
	if len(p.reasons) == maxReasons {
		p.omitted++
		return
	}
	p.reasons = append(p.reasons, reason)
}

// list returns the reasons, with a final "+N more" when some were dropped.
// It never writes into p.reasons.
func (p *pending) list() []string {
	if p.omitted == 0 {
		return p.reasons
	}
	return append(slices.Clip(p.reasons), "+"+strconv.Itoa(p.omitted)+" more")
}
