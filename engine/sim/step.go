package sim

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// StepKind says what kind of event a step was.
type StepKind uint8

const (
	// StepAction is a scheduled scenario or user action.
	StepAction StepKind = iota + 1
	// StepWatch is one watch event delivered to an informer.
	StepWatch
	// StepTimer is a delayed workqueue item becoming ready.
	StepTimer
	// StepKubelet is one scheduler, kubelet or node-controller transition.
	StepKubelet
	// StepGC is one garbage-collector item.
	StepGC
	// StepSync is one controller sync (a whole processNextWorkItem).
	StepSync
)

var stepKindNames = [...]string{StepAction: "action", StepWatch: "watch", StepTimer: "timer", StepKubelet: "kubelet", StepGC: "gc", StepSync: "sync"}

// String names the kind.
func (k StepKind) String() string {
	if int(k) < len(stepKindNames) && stepKindNames[k] != "" {
		return stepKindNames[k]
	}
	return "unknown"
}

// MarshalText renders the kind by name in JSON.
func (k StepKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// StepInfo describes one step. The caller may keep it; it holds no live
// state.
type StepInfo struct {
	// Step is the 1-based index of the step in the run.
	Step int      `json:"step"`
	Kind StepKind `json:"kind"`
	// Component is what acted: "informer/pods", "replicaset-controller",
	// "deployment-controller", "kubelet", "garbage-collector", "timeline".
	Component string `json:"component"`
	// Key is the object key the step was about, when there is one.
	Key string `json:"key,omitempty"`
	// At is the virtual time of the step since the start.
	At time.Duration `json:"atNs"`
	// FirstSeq and LastSeq bound the trace records the step produced
	// (FirstSeq > LastSeq when it produced none).
	FirstSeq uint64 `json:"firstSeq"`
	LastSeq  uint64 `json:"lastSeq"`
}

// Text renders the step as one line.
func (s StepInfo) Text() string {
	line := clock.FormatOffset(s.At) + " step " + itoa(s.Step) + " " + s.Kind.String() + " " + s.Component
	if s.Key != "" {
		line += " " + s.Key
	}
	return line
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// Records returns the trace records the step produced.
func (s StepInfo) Records(rec *trace.Recorder) []trace.Record {
	if s.FirstSeq == 0 || s.FirstSeq > s.LastSeq || int(s.LastSeq) > rec.Len() {
		return nil
	}
	return rec.Slice(int(s.FirstSeq-1), int(s.LastSeq))
}
