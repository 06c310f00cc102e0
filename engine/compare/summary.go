package compare

import (
	"fmt"
	"hash/fnv"
	"maps"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/controller/events"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Summary measures one run from the fork step to its end. Counts cover the
// fork's actions and every step after the fork; pod numbers are summed over
// all Deployments' pods (every pod in the cluster).
type Summary struct {
	Label string `json:"label"`
	// ForkStep and ForkAt are where both runs started; EndStep and EndAt
	// where this one stopped.
	ForkStep int           `json:"forkStep"`
	ForkAt   time.Duration `json:"forkAtNs"`
	EndStep  int           `json:"endStep"`
	EndAt    time.Duration `json:"endAtNs"`
	// Complete: at the end every Deployment is rolled out as `kubectl
	// rollout status` reports success, and no timeline action is pending.
	// CompleteAt is the time of the step from which that held to the end;
	// TimeToComplete is CompleteAt - ForkAt. Both are 0 when !Complete.
	Complete       bool          `json:"complete"`
	CompleteAt     time.Duration `json:"completeAtNs"`
	TimeToComplete time.Duration `json:"timeToCompleteNs"`
	// Desired is the sum of the Deployments' spec.replicas at the end.
	Desired int32 `json:"desired"`
	// PeakPods is the most active pods (not terminating, not finished) at
	// once; PeakSurge the most by which active pods exceeded the desired
	// replicas at that moment (0 if never).
	PeakPods  int `json:"peakPods"`
	PeakSurge int `json:"peakSurge"`
	// PeakReplicaSetTotal is the largest sum of spec.replicas over the
	// ReplicaSets Deployments own: what maxSurge bounds (replicas+maxSurge).
	// It counts the moments between two writes of one sync too (a new
	// ReplicaSet created before the old one is scaled down), followed
	// through the Deployment controller's ScalingReplicaSet Events.
	PeakReplicaSetTotal int32 `json:"peakReplicaSetTotal"`
	// MinAvailable is the fewest available pods, counted from the first
	// moment (at or after the fork) at which available pods reached the
	// desired replicas: the dip a rollout causes in a serving Deployment.
	// When that moment never came, it is the fewest over the whole run.
	MinAvailable int `json:"minAvailable"`
	// PodsCreated and PodsDeleted count pod create requests and pods whose
	// deletion was requested (a pod once, however many requests).
	PodsCreated int `json:"podsCreated"`
	PodsDeleted int `json:"podsDeleted"`
	// Syncs counts controller syncs by controller.
	Syncs map[string]int `json:"syncs"`
	// Stopped is the message of a limit that stopped the run, if any.
	Stopped string            `json:"stopped,omitempty"`
	Final   []DeploymentFinal `json:"final"`
}

// DeploymentFinal is one Deployment at the end of a run.
type DeploymentFinal struct {
	Namespace string   `json:"namespace"`
	Name      string   `json:"name"`
	Replicas  int32    `json:"replicas"`
	Updated   int32    `json:"updated"`
	Ready     int32    `json:"ready"`
	Available int32    `json:"available"`
	Complete  bool     `json:"complete"`
	Images    []string `json:"images"`
	// ReplicaSets are the ones it owns, in name order, with spec.replicas.
	ReplicaSets []ReplicaSetFinal `json:"replicaSets"`
}

// ReplicaSetFinal is one owned ReplicaSet at the end of a run.
type ReplicaSetFinal struct {
	Name     string `json:"name"`
	Replicas int32  `json:"replicas"`
}

// unit is the trace of one step of a run after the fork, with the records
// of the actions that ran just before it: what two runs are compared by.
type unit struct {
	info sim.StepInfo
	// from and to bound the unit's records by sequence number, inclusive
	// (from > to: none).
	from, to uint64
	// hash covers the step's kind, component, key and time and the text of
	// every record, so equal hashes mean equal steps.
	hash uint64
}

// meter watches one run: it is the session's step observer. It keeps the
// pod counts up to date from the pods each step wrote (the API requests in
// its records) instead of listing every pod after every step, which made a
// comparison quadratic in the replicas (a fork of 5,000 replicas: 215 s in
// the browser); checkMeter makes tests recount after every step.
type meter struct {
	sm      *sim.Sim
	sum     Summary
	lastSeq uint64
	deleted map[string]bool
	// full: available pods have reached the desired replicas; minFull is
	// the fewest available since then, minAll the fewest over the run.
	full            bool
	minFull, minAll int
	doneFrom        int // step from which the run has been complete; -1: not now
	doneAt          time.Duration
	units           []unit
	events          []EventLine

	// pods is what each stored pod adds to active and available (by
	// "namespace/name"); active and available are their sums. waiting holds
	// the active pods that are ready but not yet available (minReadySeconds),
	// with the time they become so. touched are the pods written since the
	// last measure; allTouched asks for every pod (the first measure, or a
	// ReplicaSet's minReadySeconds changed).
	pods               map[string]podCount
	active, available  int
	waiting            map[string]time.Time
	touched            map[string]bool
	allTouched         bool
	rsDirty, depsDirty bool
	// What the Deployments and ReplicaSets add up to, as of their last
	// writes: desired replicas, the Deployments' UIDs and whether each is
	// rolled out, the ReplicaSets' minReadySeconds by UID, and the
	// replicas the Deployments' ReplicaSets want.
	desired     int32
	deployments map[string]bool
	complete    bool
	minReady    map[string]int32
	rsTotal     int32
	// rsReplicas is what each of the Deployments' ReplicaSets wants (by
	// "namespace/name") and rsRunning their sum, as of the last measure
	// and then as each ScalingReplicaSet Event of the step says: the sum
	// between two writes of one sync (the new ReplicaSet created at 20
	// before the old one goes from 20 to 15) that the state after the step
	// no longer shows.
	rsReplicas map[string]int32
	rsRunning  int32
}

// podCount is one pod's part of the meter's counts.
type podCount struct{ active, available bool }

// checkMeter makes every measure recount all pods and panic unless the
// counts kept agree (tests set it).
var checkMeter = false

func newMeter(label string, s *session.Session, markSeq uint64) *meter {
	sm := s.Sim()
	m := &meter{sm: sm, lastSeq: markSeq, deleted: map[string]bool{}, doneFrom: -1,
		sum: Summary{Label: label, ForkStep: sm.Steps(), ForkAt: sm.Clock().Elapsed(), Syncs: map[string]int{}}, minAll: -1,
		pods: map[string]podCount{}, waiting: map[string]time.Time{}, touched: map[string]bool{}, allTouched: true, rsDirty: true, depsDirty: true,
		rsReplicas: map[string]int32{}}
	return m
}

// observe measures the state after the actions and step just taken.
func (m *meter) observe(info *sim.StepInfo) {
	rec := m.sm.Recorder()
	from := m.lastSeq + 1
	h := fnv.New64a()
	if info != nil {
		_, _ = h.Write([]byte(info.Kind.String() + " " + info.Component + " " + info.Key + " " + info.At.String() + "\n"))
		if info.Kind == sim.StepSync {
			m.sum.Syncs[info.Component]++
		}
	}
	for _, r := range rec.Since(m.lastSeq) {
		m.record(r)
		_, _ = h.Write([]byte(r.Source + " " + r.Kind().String() + ": " + r.Data.Text() + "\n"))
		m.lastSeq = r.Seq
	}
	if info != nil {
		m.units = append(m.units, unit{info: *info, from: from, to: m.lastSeq, hash: h.Sum64()})
	}
	m.measure()
}

// record counts one trace record (pod creations and deletions, Events) and
// notes what a successful write changed for the next measure.
func (m *meter) record(r trace.Record) {
	switch d := r.Data.(type) {
	case apiserver.Request:
		if d.Error != "" {
			return
		}
		base, _, _ := strings.Cut(d.Resource, "/")
		switch base {
		case string(apiserver.Deployments):
			m.depsDirty = true
		case string(apiserver.ReplicaSets):
			m.rsDirty = true
		case string(apiserver.Pods):
			key := d.Namespace + "/" + d.Name
			m.touched[key] = true
			if d.Resource != string(apiserver.Pods) {
				return
			}
			switch d.Verb {
			case "create":
				m.sum.PodsCreated++
			case "delete":
				if !m.deleted[key] {
					m.deleted[key] = true
					m.sum.PodsDeleted++
				}
			}
		}
	case events.EventRecorded:
		m.events = append(m.events, eventLine(r.At, d))
		m.scaled(d)
	}
}

// scaled follows a ScalingReplicaSet Event of a Deployment ("Scaled up
// replica set web-7f6f88cb57 from 0 to 20", the message upstream's
// controller writes after each scaling it made, the creation of a new
// ReplicaSet included) into the running sum of replicas the Deployments'
// ReplicaSets want, and the peak.
func (m *meter) scaled(d events.EventRecorded) {
	ns, ok := strings.CutPrefix(d.Object, "Deployment ")
	if d.Reason != "ScalingReplicaSet" || !ok {
		return
	}
	ns, _, _ = strings.Cut(ns, "/")
	// "Scaled up replica set NAME from A to B" (or "down").
	rest, ok := strings.CutPrefix(d.Message, "Scaled ")
	if !ok {
		return
	}
	_, rest, _ = strings.Cut(rest, " replica set ")
	name, rest, _ := strings.Cut(rest, " from ")
	_, toText, _ := strings.Cut(rest, " to ")
	to, err := strconv.ParseInt(toText, 10, 32)
	if name == "" || err != nil {
		return
	}
	key := ns + "/" + name
	m.rsRunning += int32(to) - m.rsReplicas[key]
	m.rsReplicas[key] = int32(to)
	m.sum.PeakReplicaSetTotal = max(m.sum.PeakReplicaSetTotal, m.rsRunning)
}

// measure updates the pod peaks, the available minimum and completeness
// from the API server's state now: the Deployments and ReplicaSets again
// when one was written, the pods written, and the pods whose
// minReadySeconds ran out.
func (m *meter) measure() {
	srv, now := m.sm.Server(), m.sm.Now()
	if m.depsDirty {
		m.depsDirty, m.rsDirty = false, true
		m.desired, m.complete, m.deployments = 0, true, map[string]bool{}
		for _, d := range srv.ListDeployments("", nil) {
			if d.Spec.Replicas != nil {
				m.desired += *d.Spec.Replicas
			}
			m.complete = m.complete && session.RolloutComplete(d)
			m.deployments[string(d.UID)] = true
		}
	}
	if m.rsDirty {
		m.rsDirty = false
		minReady := map[string]int32{}
		m.rsTotal = 0
		clear(m.rsReplicas)
		for _, rs := range srv.ListReplicaSets("", nil) {
			minReady[string(rs.UID)] = rs.Spec.MinReadySeconds
			if ref := metav1.GetControllerOfNoCopy(rs); ref != nil && m.deployments[string(ref.UID)] && rs.Spec.Replicas != nil {
				m.rsTotal += *rs.Spec.Replicas
				m.rsReplicas[rs.Namespace+"/"+rs.Name] = *rs.Spec.Replicas
			}
		}
		if !maps.Equal(minReady, m.minReady) {
			// A pod's availability follows its ReplicaSet's minReadySeconds.
			m.allTouched = true
		}
		m.minReady = minReady
	}
	if m.allTouched {
		m.allTouched = false
		clear(m.touched)
		for _, p := range srv.ListPods("", nil) {
			m.touched[p.Namespace+"/"+p.Name] = true
		}
		for key := range m.pods {
			m.touched[key] = true
		}
	}
	for key := range m.touched {
		p, _ := srv.FindPodByKey(key)
		m.count(key, p, now)
	}
	clear(m.touched)
	var due []string
	for key, at := range m.waiting {
		if !at.After(now) {
			due = append(due, key)
		}
	}
	for _, key := range due {
		p, _ := srv.FindPodByKey(key)
		m.count(key, p, now)
	}
	if checkMeter {
		m.recount(now)
	}
	active, available := m.active, m.available
	complete := m.complete && len(m.sm.PendingActions()) == 0
	s := &m.sum
	s.PeakPods = max(s.PeakPods, active)
	s.PeakSurge = max(s.PeakSurge, active-int(m.desired))
	s.PeakReplicaSetTotal = max(s.PeakReplicaSetTotal, m.rsTotal)
	m.rsRunning = m.rsTotal
	if !m.full && available >= int(m.desired) {
		m.full, m.minFull = true, available
	}
	if m.full {
		m.minFull = min(m.minFull, available)
	}
	if m.minAll < 0 || available < m.minAll {
		m.minAll = available
	}
	switch {
	case !complete:
		m.doneFrom = -1
	case m.doneFrom < 0:
		m.doneFrom, m.doneAt = m.sm.Steps(), m.sm.Clock().Elapsed()
	}
	s.Desired = m.desired
}

// count puts pod p (nil: gone) in the counts under key, replacing what it
// counted before, and notes when a ready pod becomes available.
func (m *meter) count(key string, p *corev1.Pod, now time.Time) {
	old := m.pods[key]
	var c podCount
	delete(m.waiting, key)
	if p != nil && podutil.IsPodActive(p) {
		c.active = true
		mrs := m.minReadyOf(p)
		c.available = podutil.IsPodAvailable(p, mrs, now)
		if since := podutil.PodReadySince(p); !c.available && mrs > 0 && podutil.IsPodReady(p) && !since.IsZero() {
			m.waiting[key] = since.Add(time.Duration(mrs) * time.Second)
		}
	}
	m.active += b2i(c.active) - b2i(old.active)
	m.available += b2i(c.available) - b2i(old.available)
	if p == nil {
		delete(m.pods, key)
	} else {
		m.pods[key] = c
	}
}

// minReadyOf is the minReadySeconds of p's controlling ReplicaSet (0 when
// none).
func (m *meter) minReadyOf(p *corev1.Pod) int32 {
	if ref := metav1.GetControllerOfNoCopy(p); ref != nil {
		return m.minReady[string(ref.UID)]
	}
	return 0
}

// recount checks the counts kept against a count of every pod.
func (m *meter) recount(now time.Time) {
	active, available := 0, 0
	for _, p := range m.sm.Server().ListPods("", nil) {
		if podutil.IsPodActive(p) {
			active++
			if podutil.IsPodAvailable(p, m.minReadyOf(p), now) {
				available++
			}
		}
	}
	if active != m.active || available != m.available {
		panic(fmt.Sprintf("meter at step %d: counts active %d, available %d; recounted %d, %d", m.sm.Steps(), m.active, m.available, active, available))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// finish fills the end of the summary.
func (m *meter) finish() Summary {
	s := m.sum
	s.EndStep, s.EndAt = m.sm.Steps(), m.sm.Clock().Elapsed()
	if err := m.sm.Err(); err != nil {
		s.Stopped = err.Error()
	}
	if m.doneFrom >= 0 {
		s.Complete, s.CompleteAt, s.TimeToComplete = true, m.doneAt, m.doneAt-s.ForkAt
	}
	s.MinAvailable = max(m.minAll, 0)
	if m.full {
		s.MinAvailable = m.minFull
	}
	srv := m.sm.Server()
	rss := srv.ListReplicaSets("", nil)
	s.Final = []DeploymentFinal{}
	for _, d := range srv.ListDeployments("", nil) {
		f := DeploymentFinal{Namespace: d.Namespace, Name: d.Name, Updated: d.Status.UpdatedReplicas, Ready: d.Status.ReadyReplicas,
			Available: d.Status.AvailableReplicas, Complete: session.RolloutComplete(d), Images: []string{}, ReplicaSets: []ReplicaSetFinal{}}
		if d.Spec.Replicas != nil {
			f.Replicas = *d.Spec.Replicas
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			f.Images = append(f.Images, c.Image)
		}
		for _, rs := range rss {
			if ref := metav1.GetControllerOfNoCopy(rs); ref != nil && ref.UID == d.UID && rs.Spec.Replicas != nil {
				f.ReplicaSets = append(f.ReplicaSets, ReplicaSetFinal{Name: rs.Name, Replicas: *rs.Spec.Replicas})
			}
		}
		s.Final = append(s.Final, f)
	}
	return s
}
