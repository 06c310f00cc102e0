package deployutil

import "github.com/rolloutlab/rolloutlab/engine/trace"

// Every math and decision record is a trace payload.
var (
	_ trace.Payload = FencepostMath{}
	_ trace.Payload = NewRSMath{}
	_ trace.Payload = ReconcileNewMath{}
	_ trace.Payload = OldScaleDownMath{}
	_ trace.Payload = ScalingEventMath{}
	_ trace.Payload = ScaleMath{}
	_ trace.Payload = CleanupPlan{}
	_ trace.Payload = RolloutStatusDecision{}
	_ trace.Payload = RequeueMath{}
)
