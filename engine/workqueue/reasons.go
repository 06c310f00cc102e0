package workqueue

import "strconv"

// maxReasons bounds the reasons kept per dirty key, so a key dirtied by a
// thousand pod events does not carry a thousand strings. Further distinct
// reasons are only counted.
const maxReasons = 16

// pending collects the reasons a dirty key was added for.
type pending struct {
	// reasons are distinct and non-empty (by text), in arrival order; at
	// most maxReasons of them.
	reasons []Reason
	// omitted counts distinct reasons dropped after maxReasons was reached
	// (a dropped reason given twice is counted twice).
	omitted int
}

// note records reason unless it is empty or already known.
func (p *pending) note(reason Reason) {
	if reason.empty() {
		return
	}
	for _, r := range p.reasons {
		if r.sameText(reason) {
			return
		}
	}
	if len(p.reasons) == maxReasons {
		p.omitted++
		return
	}
	p.reasons = append(p.reasons, reason)
}

// list returns the reasons' texts, with a final "+N more" when some were
// dropped; nil when there are none. The slice is new.
func (p *pending) list() []string {
	if len(p.reasons) == 0 && p.omitted == 0 {
		return nil
	}
	out := make([]string, len(p.reasons), len(p.reasons)+1)
	for i, r := range p.reasons {
		out[i] = r.String()
	}
	if p.omitted > 0 {
		out = append(out, "+"+strconv.Itoa(p.omitted)+" more")
	}
	return out
}
