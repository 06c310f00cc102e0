package deployutil

import (
	"fmt"
	"reflect"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// NoRequeue is what RequeueStuckDeployment returns when no deadline check
// needs scheduling (upstream's time.Duration(-1)).
const NoRequeue time.Duration = -1

// requeueSlack is added to the remaining time before the deadline re-check,
// and is also the threshold under which the key is re-added rate-limited.
const requeueSlack = time.Second

// RolloutCase is which branch of syncRolloutStatus set the Progressing
// condition.
type RolloutCase uint8

const (
	// RolloutNoDeadline: no progress deadline; the Progressing condition is
	// removed and nothing is estimated.
	RolloutNoDeadline RolloutCase = iota + 1
	// RolloutAlreadyComplete: status replicas == updated and the current
	// Progressing reason is NewReplicaSetAvailable; nothing is estimated.
	RolloutAlreadyComplete
	// RolloutComplete: DeploymentComplete; Progressing True
	// NewReplicaSetAvailable (via SetDeploymentCondition).
	RolloutComplete
	// RolloutProgressing: DeploymentProgressing; Progressing True
	// ReplicaSetUpdated, replaced so lastUpdateTime is now
	// (lastTransitionTime kept if it was True).
	RolloutProgressing
	// RolloutTimedOut: DeploymentTimedOut; Progressing False
	// ProgressDeadlineExceeded (via SetDeploymentCondition).
	RolloutTimedOut
	// RolloutNoProgress: a deadline is set but none of the cases matched.
	RolloutNoProgress
)

// String names the case.
func (c RolloutCase) String() string {
	switch c {
	case RolloutNoDeadline:
		return "no-deadline"
	case RolloutAlreadyComplete:
		return "already-complete"
	case RolloutComplete:
		return "complete"
	case RolloutProgressing:
		return "progressing"
	case RolloutTimedOut:
		return "timed-out"
	case RolloutNoProgress:
		return "no-progress"
	}
	return "unknown"
}

// MarshalText renders the case as its String.
func (c RolloutCase) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// RolloutStatusDecision is the result of SyncRolloutStatus.
type RolloutStatusDecision struct {
	// NewStatus is the status to write (not part of the trace record).
	NewStatus appsv1.DeploymentStatus `json:"-"`
	// Case is the branch that set the Progressing condition.
	Case RolloutCase `json:"case"`
	// Replicas is the deployment's spec.replicas.
	Replicas int32 `json:"replicas"`
	// Old and New are the status counters before and after.
	Old StatusCounts `json:"old"`
	New StatusCounts `json:"new"`
	// Progressing is the Progressing condition after (nil: absent).
	Progressing *ConditionSummary `json:"progressing,omitempty"`
	// ReplicaFailureFrom names the ReplicaSet whose ReplicaFailure condition
	// was copied ("" when the condition was removed).
	ReplicaFailureFrom string `json:"replicaFailureFrom,omitempty"`
	// Changed is true when NewStatus differs from d.status: the controller
	// calls UpdateStatus. When false it schedules Requeue instead.
	Changed bool `json:"changed"`
	// Requeue is the stuck-deployment re-check; set only when !Changed.
	Requeue *RequeueMath `json:"requeue,omitempty"`
}

// StatusCounts are the counters a rollout decision compares.
type StatusCounts struct {
	Replicas  int32 `json:"replicas"`
	Updated   int32 `json:"updated"`
	Ready     int32 `json:"ready"`
	Available int32 `json:"available"`
}

func (c StatusCounts) text() string {
	return fmt.Sprintf("%d/%d/%d/%d", c.Replicas, c.Updated, c.Ready, c.Available)
}

func countsOf(s *appsv1.DeploymentStatus) StatusCounts {
	return StatusCounts{Replicas: s.Replicas, Updated: s.UpdatedReplicas, Ready: s.ReadyReplicas, Available: s.AvailableReplicas}
}

// ConditionSummary is a condition's status and reason.
type ConditionSummary struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// Kind implements trace.Payload.
func (RolloutStatusDecision) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (r RolloutStatusDecision) Text() string {
	s := fmt.Sprintf("syncRolloutStatus: replicas %d; total/updated/ready/available %s -> %s; case %s",
		r.Replicas, r.Old.text(), r.New.text(), r.Case)
	if r.Progressing != nil {
		s += fmt.Sprintf("; Progressing %s %s", r.Progressing.Status, r.Progressing.Reason)
	} else {
		s += "; no Progressing condition"
	}
	if r.ReplicaFailureFrom != "" {
		s += "; ReplicaFailure from " + r.ReplicaFailureFrom
	}
	if r.Changed {
		return s + " -> UpdateStatus"
	}
	return s + " -> unchanged; " + r.Requeue.Text()
}

// SyncRolloutStatus computes the status syncRolloutStatus would write.
// allRSs holds the old ReplicaSets and newRS (which may be nil).
//
//  1. newStatus = CalculateStatus; without a deadline the Progressing
//     condition is removed.
//  2. With a deadline, unless already complete (newStatus replicas ==
//     updated and the current Progressing reason is NewReplicaSetAvailable),
//     the first match sets Progressing: DeploymentComplete ->
//     True/NewReplicaSetAvailable; DeploymentProgressing (against d.status)
//     -> True/ReplicaSetUpdated, always replacing the condition so
//     lastUpdateTime is now, keeping lastTransitionTime if it was True;
//     DeploymentTimedOut -> False/ProgressDeadlineExceeded.
//  3. A ReplicaFailure condition is copied from newRS, else from the first
//     ReplicaSet in allRSs that has one; otherwise it is removed.
//  4. If newStatus deep-equals d.status nothing is written and
//     RequeueStuckDeployment decides the deadline re-check.
func SyncRolloutStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment, now time.Time) RolloutStatusDecision {
	st := CalculateStatus(allRSs, newRS, d, now)
	r := RolloutStatusDecision{Replicas: replicasOf(d), Old: countsOf(&d.Status)}
	cur := GetDeploymentCondition(&d.Status, appsv1.DeploymentProgressing)
	switch {
	case !HasProgressDeadline(d):
		RemoveDeploymentCondition(&st, appsv1.DeploymentProgressing)
		r.Case = RolloutNoDeadline
	case st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == ReasonNewRSAvailable:
		r.Case = RolloutAlreadyComplete
	case DeploymentComplete(d, &st):
		r.Case = RolloutComplete
		SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue,
			ReasonNewRSAvailable, progressMessage(d, newRS, "has successfully progressed."), now))
	case DeploymentProgressing(d, &st):
		r.Case = RolloutProgressing
		c := NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue,
			ReasonRSUpdated, progressMessage(d, newRS, "is progressing."), now)
		if cur != nil {
			if cur.Status == corev1.ConditionTrue {
				c.LastTransitionTime = cur.LastTransitionTime
			}
			RemoveDeploymentCondition(&st, appsv1.DeploymentProgressing)
		}
		SetDeploymentCondition(&st, c)
	case DeploymentTimedOut(d, &st, now):
		r.Case = RolloutTimedOut
		SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionFalse,
			ReasonTimedOut, progressMessage(d, newRS, "has timed out progressing."), now))
	default:
		r.Case = RolloutNoProgress
	}

	if from, c, ok := replicaFailure(allRSs, newRS); ok {
		SetDeploymentCondition(&st, c)
		r.ReplicaFailureFrom = from
	} else {
		RemoveDeploymentCondition(&st, appsv1.DeploymentReplicaFailure)
	}

	r.NewStatus, r.New = st, countsOf(&st)
	if c := GetDeploymentCondition(&st, appsv1.DeploymentProgressing); c != nil {
		r.Progressing = &ConditionSummary{Status: string(c.Status), Reason: c.Reason}
	}
	r.Changed = !reflect.DeepEqual(d.Status, st)
	if !r.Changed {
		_, m := RequeueStuckDeployment(d, &st, now)
		r.Requeue = &m
	}
	return r
}

// progressMessage is `ReplicaSet "<rs>" <tail>`, or `Deployment "<d>" <tail>`
// without a new ReplicaSet.
func progressMessage(d *appsv1.Deployment, newRS *appsv1.ReplicaSet, tail string) string {
	if newRS != nil {
		return fmt.Sprintf("ReplicaSet %q %s", newRS.Name, tail)
	}
	return fmt.Sprintf("Deployment %q %s", d.Name, tail)
}

// replicaFailure finds the ReplicaFailure condition to copy: newRS's first,
// else the first one on any ReplicaSet of allRSs, in order.
func replicaFailure(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) (string, appsv1.DeploymentCondition, bool) {
	search := append([]*appsv1.ReplicaSet{newRS}, allRSs...)
	for _, rs := range search {
		if rs == nil {
			continue
		}
		for _, c := range rs.Status.Conditions {
			if c.Type == appsv1.ReplicaSetReplicaFailure {
				return rs.Name, ReplicaSetToDeploymentCondition(c), true
			}
		}
	}
	return "", appsv1.DeploymentCondition{}, false
}

// RequeueKind is what the controller does after an unchanged rollout status.
type RequeueKind uint8

const (
	// RequeueNone: nothing to schedule.
	RequeueNone RequeueKind = iota + 1
	// RequeueRateLimited: less than a second is left: AddRateLimited now.
	RequeueRateLimited
	// RequeueAfter: AddAfter(remaining + 1s).
	RequeueAfter
)

// String names the kind.
func (k RequeueKind) String() string {
	switch k {
	case RequeueNone:
		return "none"
	case RequeueRateLimited:
		return "rate-limited"
	case RequeueAfter:
		return "after"
	}
	return "unknown"
}

// MarshalText renders the kind as its String.
func (k RequeueKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// RequeueMath records the requeueStuckDeployment decision.
type RequeueMath struct {
	// Decision is what the controller does.
	Decision RequeueKind `json:"decision"`
	// Why explains RequeueNone: "no progress deadline", "no Progressing
	// condition", "rollout complete", "already timed out".
	Why string `json:"why,omitempty"`
	// LastUpdate is the Progressing condition's lastUpdateTime.
	LastUpdate time.Time `json:"lastUpdate"`
	// DeadlineSeconds is spec.progressDeadlineSeconds.
	DeadlineSeconds int32 `json:"deadlineSeconds"`
	// Now is the virtual time of the check.
	Now time.Time `json:"now"`
	// Remaining is lastUpdate + deadline - now.
	Remaining time.Duration `json:"remainingNs"`
	// AddAfter is Remaining + 1s for RequeueAfter.
	AddAfter time.Duration `json:"addAfterNs"`
}

// Kind implements trace.Payload.
func (RequeueMath) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (m RequeueMath) Text() string {
	switch m.Decision {
	case RequeueNone:
		return "requeueStuckDeployment: " + m.Why + " -> no requeue"
	case RequeueRateLimited:
		return fmt.Sprintf("requeueStuckDeployment: remaining = lastUpdate + %ds - now = %s < 1s -> requeue rate-limited", m.DeadlineSeconds, m.Remaining)
	}
	return fmt.Sprintf("requeueStuckDeployment: remaining = lastUpdate + %ds - now = %s -> requeue after %s", m.DeadlineSeconds, m.Remaining, m.AddAfter)
}

// RequeueStuckDeployment decides when to re-check a rollout whose status did
// not change, returning NoRequeue (-1), 0 (re-add rate-limited now) or the
// time left before the deadline (the controller re-adds after that + 1s).
//
// NoRequeue when there is no deadline, no current Progressing condition, the
// rollout is complete against newStatus, or the current reason is
// ProgressDeadlineExceeded. Otherwise remaining = lastUpdateTime + deadline -
// now; under 1s it is 0.
//
// Worked example: deadline 60s, lastUpdateTime 18:49:00, now 18:49:30 ->
// remaining 30s, re-add after 31s; now 18:49:59.000000001 -> 0 (rate-limited).
func RequeueStuckDeployment(d *appsv1.Deployment, newStatus *appsv1.DeploymentStatus, now time.Time) (time.Duration, RequeueMath) {
	m := RequeueMath{Decision: RequeueNone, Now: now}
	if d.Spec.ProgressDeadlineSeconds != nil {
		m.DeadlineSeconds = *d.Spec.ProgressDeadlineSeconds
	}
	cur := GetDeploymentCondition(&d.Status, appsv1.DeploymentProgressing)
	switch {
	case !HasProgressDeadline(d):
		m.Why = "no progress deadline"
	case cur == nil:
		m.Why = "no Progressing condition"
	case DeploymentComplete(d, newStatus):
		m.Why = "rollout complete"
	case cur.Reason == ReasonTimedOut:
		m.Why = "already timed out"
	}
	if m.Why != "" {
		return NoRequeue, m
	}
	m.LastUpdate = cur.LastUpdateTime.Time
	m.Remaining = cur.LastUpdateTime.Add(time.Duration(m.DeadlineSeconds) * time.Second).Sub(now)
	if m.Remaining < requeueSlack {
		m.Decision = RequeueRateLimited
		return 0, m
	}
	m.Decision, m.AddAfter = RequeueAfter, m.Remaining+requeueSlack
	return m.Remaining, m
}
