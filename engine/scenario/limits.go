package scenario

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
)

// Ceilings are the largest limits a front end lets a file ask for in
// spec.limits. The schema's own bounds (MaxPodsLimit, ...) only reject
// nonsense; a ceiling keeps the run within what the front end can hold:
// a page that runs out of memory loses everything the user had open.
type Ceilings struct {
	// Where names the front end in errors: "the command line", "the browser".
	Where                              string
	MaxPods, MaxSteps, MaxTraceRecords int
}

// Ceilings of the two front ends. The browser's pod ceiling is twice
// 10,000 replicas: a 10,000-replica Deployment created and rolled out with
// the API defaults (25% surge and unavailability; scripts/bench/rollout-10k.yaml,
// 170,330 steps) has up to 17,500 pods at once, 12,500 of the surge and
// 5,000 terminating: it stops at a limit of 17,000 and completes at 17,500.
// (At 15,000, the ceiling before, it could not finish in the browser.) A
// 100,000-replica rollout took 37 s and 3.2 GB natively, more than a tab
// holds.
var (
	CLICeilings     = Ceilings{Where: "the command line", MaxPods: 50000, MaxSteps: 5000000, MaxTraceRecords: 20000000}
	BrowserCeilings = Ceilings{Where: "the browser", MaxPods: 20000, MaxSteps: 500000, MaxTraceRecords: 2000000}
)

// CheckLimits reports, as an ErrorList naming file and line, every limit of s
// above c, and every object or scale action asking for more replicas than
// the pod limit (within c) allows: such a run could only stop at the limit,
// after a great deal of work. It returns nil when s fits.
func (s *Scenario) CheckLimits(file string, c Ceilings) error {
	var errs ErrorList
	at := s.Limits.At
	over := func(field string, v, ceiling, line int, what string) {
		if v > ceiling {
			errs = append(errs, &Error{File: file, Doc: at.Doc, Line: line, Field: "spec.limits." + field,
				Message: strconv.Itoa(v) + " is more than " + c.Where + " allows: at most " + strconv.Itoa(ceiling) + " " + what +
					" (lower spec.limits." + field + " in the Scenario document)"})
		}
	}
	over("maxPods", s.Limits.MaxPods, c.MaxPods, at.MaxPods, "pods at once")
	over("maxSteps", s.Limits.MaxSteps, c.MaxSteps, at.MaxSteps, "steps")
	over("maxTraceRecords", s.Limits.MaxTraceRecords, c.MaxTraceRecords, at.MaxTraceRecords, "trace records")
	tooMany := func(replicas int32) string {
		n := strconv.Itoa(int(replicas)) + " replicas need more pods than "
		if s.Limits.MaxPods < c.MaxPods {
			return n + "the pod limit, " + strconv.Itoa(s.Limits.MaxPods) + " (spec.limits.maxPods); raise spec.limits.maxPods in the Scenario document (" +
				c.Where + " allows up to " + strconv.Itoa(c.MaxPods) + ") or ask for fewer replicas"
		}
		return n + c.Where + " allows (at most " + strconv.Itoa(c.MaxPods) + " pods at once); ask for fewer replicas"
	}
	maxPods := int32(min(s.Limits.MaxPods, c.MaxPods))
	for _, obj := range s.Objects {
		if replicas := ReplicasOf(obj); replicas != nil && *replicas > maxPods {
			errs = append(errs, &Error{File: file, Doc: obj.Doc, Line: obj.FieldLine("spec.replicas"), Field: "spec.replicas", Message: tooMany(*replicas)})
		}
	}
	for i, a := range s.Timeline {
		if a.Type == ActionScale && a.Replicas > maxPods {
			errs = append(errs, &Error{File: file, Doc: a.Doc, Line: a.Line, Field: "spec.timeline[" + strconv.Itoa(i) + "].replicas", Message: tooMany(a.Replicas)})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// ReplicasOf returns the spec.replicas of a Deployment or ReplicaSet (nil
// for other kinds, or when unset): what a file or an action asks pods for.
func ReplicasOf(o Object) *int32 {
	switch obj := o.Obj.(type) {
	case *appsv1.Deployment:
		return obj.Spec.Replicas
	case *appsv1.ReplicaSet:
		return obj.Spec.Replicas
	}
	return nil
}
