package refmanager

import (
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Change names an object a Manager patched and the resourceVersion the
// patch produced.
type Change struct {
	Name string `json:"name"`
	RV   string `json:"rv"`
}

// Summary is the outcome of one claim pass. It is a trace payload; the
// caller records it if it wants to.
type Summary struct {
	// Owner is "Kind ns/name".
	Owner string `json:"owner"`
	// Selector is the owner's selector as text.
	Selector string `json:"selector"`
	// Candidates is the number of objects examined.
	Candidates int `json:"candidates"`
	// Claimed is the number of objects returned: Kept + len(Adopted).
	Claimed int `json:"claimed"`
	// Kept counts objects already controlled by the owner and matching.
	Kept int `json:"kept"`
	// Adopted lists the objects adopted, in candidate order.
	Adopted []Change `json:"adopted,omitempty"`
	// Released lists the objects released, in candidate order.
	Released []Change `json:"released,omitempty"`
	// OtherOwner counts objects controlled by someone else (ignored).
	OtherOwner int `json:"otherOwner"`
	// Skipped counts objects neither claimed nor patched for another
	// reason: orphans that do not match, are terminating, live in another
	// namespace, or meet an owner being deleted; non-matching objects of an
	// owner being deleted; adoptions answered NotFound.
	Skipped int `json:"skipped"`
	// Failed lists the objects whose adopt or release failed with an error.
	Failed []string `json:"failed,omitempty"`
}

var _ trace.Payload = Summary{}

// Kind implements trace.Payload.
func (Summary) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "claim ReplicaSet default/web (env=prod): 2 of 3 claimed; kept 1, adopted 1 [test], released 0, other owner 1, skipped 0, failed 0".
func (s Summary) Text() string {
	var b strings.Builder
	b.WriteString("claim ")
	b.WriteString(s.Owner)
	b.WriteString(" (")
	b.WriteString(s.Selector)
	b.WriteString("): ")
	b.WriteString(strconv.Itoa(s.Claimed))
	b.WriteString(" of ")
	b.WriteString(strconv.Itoa(s.Candidates))
	b.WriteString(" claimed; kept ")
	b.WriteString(strconv.Itoa(s.Kept))
	b.WriteString(", adopted ")
	writeChanges(&b, s.Adopted)
	b.WriteString(", released ")
	writeChanges(&b, s.Released)
	b.WriteString(", other owner ")
	b.WriteString(strconv.Itoa(s.OtherOwner))
	b.WriteString(", skipped ")
	b.WriteString(strconv.Itoa(s.Skipped))
	b.WriteString(", failed ")
	b.WriteString(strconv.Itoa(len(s.Failed)))
	if len(s.Failed) > 0 {
		b.WriteString(" [")
		b.WriteString(strings.Join(s.Failed, " "))
		b.WriteString("]")
	}
	return b.String()
}

func writeChanges(b *strings.Builder, cs []Change) {
	b.WriteString(strconv.Itoa(len(cs)))
	if len(cs) == 0 {
		return
	}
	b.WriteString(" [")
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.Name)
	}
	b.WriteString("]")
}

// KeptPodsSummary is the Summary ClaimPods returns for rs when it patches
// nothing: kept active pods controlled by rs that match selector, and
// skipped active orphans of rs's namespace that do not. A caller that knows
// from counts alone that no pod can be adopted or released uses it instead
// of the walk.
func KeptPodsSummary(rs *appsv1.ReplicaSet, selector labels.Selector, kept, skipped int) Summary {
	return Summary{
		Owner:      describe(apiserver.ReplicaSets.Kind(), rs),
		Selector:   selector.String(),
		Candidates: kept + skipped,
		Claimed:    kept,
		Kept:       kept,
		Skipped:    skipped,
	}
}
