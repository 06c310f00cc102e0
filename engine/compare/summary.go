package compare

import (
	"hash/fnv"
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

// meter watches one run: it is the session's step observer.
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
}

func newMeter(label string, s *session.Session, markSeq uint64) *meter {
	sm := s.Sim()
	m := &meter{sm: sm, lastSeq: markSeq, deleted: map[string]bool{}, doneFrom: -1,
		sum: Summary{Label: label, ForkStep: sm.Steps(), ForkAt: sm.Clock().Elapsed(), Syncs: map[string]int{}}, minAll: -1}
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

// record counts one trace record: pod creations and deletions, Events.
func (m *meter) record(r trace.Record) {
	switch d := r.Data.(type) {
	case apiserver.Request:
		if d.Resource != string(apiserver.Pods) || d.Error != "" {
			return
		}
		key := d.Namespace + "/" + d.Name
		switch d.Verb {
		case "create":
			m.sum.PodsCreated++
		case "delete":
			if !m.deleted[key] {
				m.deleted[key] = true
				m.sum.PodsDeleted++
			}
		}
	case events.EventRecorded:
		m.events = append(m.events, eventLine(r.At, d))
	}
}

// measure updates the pod peaks, the available minimum and completeness
// from the API server's state now.
func (m *meter) measure() {
	srv, now := m.sm.Server(), m.sm.Now()
	var desired int32
	complete := len(m.sm.PendingActions()) == 0
	deployments := map[string]bool{}
	for _, d := range srv.ListDeployments("", nil) {
		if d.Spec.Replicas != nil {
			desired += *d.Spec.Replicas
		}
		complete = complete && session.RolloutComplete(d)
		deployments[string(d.UID)] = true
	}
	minReady := map[string]int32{}
	var rsTotal int32
	for _, rs := range srv.ListReplicaSets("", nil) {
		minReady[string(rs.UID)] = rs.Spec.MinReadySeconds
		if ref := metav1.GetControllerOfNoCopy(rs); ref != nil && deployments[string(ref.UID)] && rs.Spec.Replicas != nil {
			rsTotal += *rs.Spec.Replicas
		}
	}
	active, available := 0, 0
	for _, p := range srv.ListPods("", nil) {
		if !podutil.IsPodActive(p) {
			continue
		}
		active++
		if podAvailable(p, minReady, now) {
			available++
		}
	}
	s := &m.sum
	s.PeakPods = max(s.PeakPods, active)
	s.PeakSurge = max(s.PeakSurge, active-int(desired))
	s.PeakReplicaSetTotal = max(s.PeakReplicaSetTotal, rsTotal)
	if !m.full && available >= int(desired) {
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
	s.Desired = desired
}

func podAvailable(p *corev1.Pod, minReady map[string]int32, now time.Time) bool {
	var mrs int32
	if ref := metav1.GetControllerOfNoCopy(p); ref != nil {
		mrs = minReady[string(ref.UID)]
	}
	return podutil.IsPodAvailable(p, mrs, now)
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
