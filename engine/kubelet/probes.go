package kubelet

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Probe defaults of the v1 API (periodSeconds, successThreshold,
// failureThreshold when unset).
const (
	defaultProbePeriod  = 10 * time.Second
	defaultProbeSuccess = 1
	defaultProbeFailure = 3
)

// probe is a container probe as the model runs it: the first probe at
// initialDelay after the container starts, then one every period.
// Timeouts are not modelled: a probe succeeds exactly when the application
// answers.
type probe struct {
	initialDelay, period time.Duration
	// success and failure are the consecutive results needed to change
	// state; both >= 1.
	success, failure int
}

// probeOf reads a container probe with the API defaults applied; nil when
// the container has none.
func probeOf(pr *corev1.Probe) *probe {
	if pr == nil {
		return nil
	}
	p := &probe{
		initialDelay: time.Duration(max(pr.InitialDelaySeconds, 0)) * time.Second,
		period:       time.Duration(pr.PeriodSeconds) * time.Second,
		success:      int(pr.SuccessThreshold),
		failure:      int(pr.FailureThreshold),
	}
	if p.period <= 0 {
		p.period = defaultProbePeriod
	}
	if p.success <= 0 {
		p.success = defaultProbeSuccess
	}
	if p.failure <= 0 {
		p.failure = defaultProbeFailure
	}
	return p
}

// tickAtOrAfter returns the time (since the start) of the first probe at or
// after t.
func (pr *probe) tickAtOrAfter(t time.Duration) time.Duration {
	if t <= pr.initialDelay {
		return pr.initialDelay
	}
	n := (t - pr.initialDelay + pr.period - 1) / pr.period
	return pr.initialDelay + n*pr.period
}

// thresholdFrom returns when the n-th consecutive probe counted from the
// first one at or after t happens.
func (pr *probe) thresholdFrom(t time.Duration, n int) time.Duration {
	return pr.tickAtOrAfter(t) + time.Duration(n-1)*pr.period
}

// planProbes works out, for a container that has just started at now, when
// its probes change its state during this run. The application answers
// from answerAt (the profile's ReadyDelay plus jitter; at once for a
// never-ready image, whose readiness alone fails) until hangAt (the
// profile's HangAfter; never when unset):
//
//   - ready: without readinessProbe when the application answers (as the
//     model always did); with one, after success consecutive probes from
//     the first one at or after answerAt, if that is before the hang. A
//     NeverReady image is never ready.
//   - unready: after failure consecutive readiness probes from the hang
//     on (a pod without readinessProbe stays Ready while hung).
//   - killed: after failure consecutive liveness probes that find the
//     application not answering, either before it first answers (an
//     initialDelaySeconds too short) or from the hang on. The kubelet then
//     restarts the container (restartAfterBackOff).
//
// Outcomes after the kill do not happen in this run.
func (k *Kubelet) planProbes(p *podState, prof ImageProfile, now time.Time) {
	p.readyAt, p.unreadyAt, p.killAt = time.Time{}, time.Time{}, time.Time{}
	var answer time.Duration
	if !prof.NeverReady {
		answer = k.readyDelay(p)
	}
	hang := prof.HangAfter
	hung := func(t time.Duration) bool { return hang > 0 && t >= hang }

	var ready, unready, kill time.Duration = -1, -1, -1
	if !prof.NeverReady {
		ready = answer
		if r := p.readiness; r != nil {
			ready = r.thresholdFrom(answer, r.success)
		}
		if hung(ready) {
			ready = -1
		}
	}
	if r := p.readiness; r != nil && ready >= 0 && hang > 0 {
		unready = r.thresholdFrom(hang, r.failure)
	}
	if l := p.liveness; l != nil {
		early := l.thresholdFrom(0, l.failure) // every probe fails until answer
		switch {
		case early < answer:
			kill = early
		case hang > 0 && l.tickAtOrAfter(answer) < hang:
			kill = l.thresholdFrom(hang, l.failure) // a success in between resets the count
		case hang > 0:
			// No probe fell while it answered: every probe fails, and
			// early (>= answer, not before hang) is the failure-th one.
			kill = early
		}
	}
	at := func(d time.Duration) time.Time {
		if d < 0 || (kill >= 0 && d > kill) {
			return time.Time{}
		}
		return now.Add(d)
	}
	p.readyAt, p.unreadyAt = at(ready), at(unready)
	if kill >= 0 {
		p.killAt = now.Add(kill)
	}
}

// scheduleProbeOutcome schedules the earliest probe outcome still due in
// this run, or nothing (until deletion) when none is left.
func (k *Kubelet) scheduleProbeOutcome(p *podState) {
	var at time.Time
	var act action
	for _, o := range []struct {
		at  time.Time
		act action
	}{{p.readyAt, actReady}, {p.unreadyAt, actUnready}, {p.killAt, actLivenessKill}} {
		if !o.at.IsZero() && (at.IsZero() || o.at.Before(at)) {
			at, act = o.at, o.act
		}
	}
	if at.IsZero() {
		p.gen++ // nothing further happens until deletion
		return
	}
	k.schedulePod(p, at.Sub(k.clock.Now()), act)
}

// unready marks the pod NotReady: its readiness probe failed failureThreshold
// times in a row.
func (k *Kubelet) unready(p *podState, pod *corev1.Pod) {
	now := k.clock.Now()
	setPodCondition(pod, corev1.ContainersReady, corev1.ConditionFalse, "ContainersNotReady", now)
	setPodCondition(pod, corev1.PodReady, corev1.ConditionFalse, "ContainersNotReady", now)
	pod.Status.ContainerStatuses = slices.Clone(pod.Status.ContainerStatuses) // shared with the stored pod
	for i := range pod.Status.ContainerStatuses {
		pod.Status.ContainerStatuses[i].Ready = false
	}
	k.writeStatus("kubelet", pod)
	p.stage = stageRunning
	p.unreadyAt = time.Time{}
	k.emit(Transition{Pod: p.key, Node: p.node, What: "unready", Detail: fmt.Sprintf("readiness probe failed %d times", p.readiness.failure)})
	k.scheduleProbeOutcome(p)
}

// livenessKill kills the container whose liveness probe failed
// failureThreshold times in a row; the kubelet restarts it in the same pod
// after its back-off.
func (k *Kubelet) livenessKill(p *podState, pod *corev1.Pod) {
	why := fmt.Sprintf("liveness probe failed %d times; ", p.liveness.failure)
	k.restartAfterBackOff(p, pod, 137, "killed", why)
}
