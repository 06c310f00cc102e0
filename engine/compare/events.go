package compare

import (
	"strings"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/controller/events"
)

// EventLine is one Event a run recorded, as `kubectl get events` lists it
// without its age: "Normal  ScalingReplicaSet  deployment/web  Scaled up
// replica set web-7c5d from 0 to 5".
type EventLine struct {
	At   time.Duration `json:"atNs"`
	Line string        `json:"line"`
}

// EventDiff lists the Events only one run recorded, each in its run's
// order. An Event both recorded counts as common however far apart in time
// (the line has no time); repeated lines are matched one for one.
type EventDiff struct {
	OnlyA  []EventLine `json:"onlyA"`
	OnlyB  []EventLine `json:"onlyB"`
	Common int         `json:"common"`
}

func eventLine(at time.Duration, e events.EventRecorded) EventLine {
	// e.Object is "<Kind> ns/name"; kubectl's OBJECT column is kind/name.
	kind, key, _ := strings.Cut(e.Object, " ")
	_, name, ok := strings.Cut(key, "/")
	if !ok {
		name = key
	}
	return EventLine{At: at, Line: e.Type + "  " + e.Reason + "  " + strings.ToLower(kind) + "/" + name + "  " + e.Message}
}

// diffEvents matches a's lines against b's as multisets.
func diffEvents(a, b []EventLine) EventDiff {
	d := EventDiff{OnlyA: []EventLine{}, OnlyB: []EventLine{}}
	inB := map[string]int{}
	for _, e := range b {
		inB[e.Line]++
	}
	inA := map[string]int{}
	for _, e := range a {
		if inB[e.Line] > 0 {
			inB[e.Line]--
			inA[e.Line]++
			d.Common++
			continue
		}
		d.OnlyA = append(d.OnlyA, e)
	}
	for _, e := range b {
		if inA[e.Line] > 0 {
			inA[e.Line]--
			continue
		}
		d.OnlyB = append(d.OnlyB, e)
	}
	return d
}
