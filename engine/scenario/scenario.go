package scenario

import (
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rolloutlab/rolloutlab/engine/kubelet"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// Scenario is a parsed scenario file.
type Scenario struct {
	// Name is metadata.name of the Scenario document, or the file name
	// given to Parse when the file has none.
	Name string `json:"name"`
	// Description is metadata.description, shown in the UI library.
	Description string `json:"description,omitempty"`
	// Translations are metadata.translations: the description in other
	// languages, by language tag (see translations.go); nil when none.
	Translations map[string]ScenarioText `json:"translations,omitempty"`
	// Seed is spec.seed; 0 when absent (the caller may substitute its own).
	Seed uint64 `json:"seed"`
	// Cluster is the simulated cluster, defaults filled in.
	Cluster ClusterSpec `json:"cluster"`
	// Limits bound the simulation, defaults filled in.
	Limits Limits `json:"limits"`
	// Objects are the Kubernetes documents, in file order, to apply at
	// time zero.
	Objects []Object `json:"objects"`
	// Timeline is spec.timeline in file order.
	Timeline []Action `json:"timeline"`
	// SpecOnly is spec.specOnly: start from the specs of pasted cluster
	// output, not from its state (see Options.SpecOnly).
	SpecOnly bool `json:"specOnly,omitempty"`
	// Notices are what the user should know about a file that loaded:
	// ignored kinds, replaced objects, fields of live cluster output dropped
	// or reinterpreted. In file order, whole-file notices last.
	Notices []Notice `json:"notices,omitempty"`
	// Annotations are spec.annotations in file order: notes for a presenter
	// at steps worth pausing at. They never change the simulation.
	Annotations []Annotation `json:"annotations,omitempty"`
}

// Object is one Kubernetes object read from the file.
type Object struct {
	// Obj is a *appsv1.Deployment, *appsv1.ReplicaSet or *corev1.Pod with
	// TypeMeta set and metadata.namespace defaulted to "default" (as kubectl
	// fills in the namespace of its context).
	Obj runtime.Object `json:"object"`
	// Doc is the 1-based document index; Line the line of the document's
	// first key.
	Doc  int `json:"doc"`
	Line int `json:"line"`
	// Lines maps the field paths the file gives to their line
	// ("spec.selector", "spec.template.spec.containers[0].image", map keys
	// as "metadata.labels[app]"; "" is the object's own line). FieldLine
	// reads it.
	Lines map[string]int `json:"-"`
	// Live is set for an object pasted from a cluster whose state (status,
	// creation time, generation) is the initial state of the simulation;
	// set-up restores it rather than applying it (see prepareLive).
	Live bool `json:"live,omitempty"`
	// Filled is set for a live object the file does not hold: the
	// ReplicaSet and pods a pasted Deployment's status describes (see
	// fillRunning); Doc and Line are the Deployment's.
	Filled bool `json:"filled,omitempty"`
}

// FieldLine returns the line of the field at path, an API field path as the
// API server's errors give it ("spec.template.spec.containers[0].image",
// "metadata.labels[app]"). A field the file does not give is placed at its
// closest enclosing field that it does give, else at the object's line.
func (o Object) FieldLine(path string) int {
	for {
		if l, ok := o.Lines[path]; ok {
			return l
		}
		if path == "" {
			return o.Line
		}
		cut := strings.LastIndexAny(path, ".[")
		if cut < 0 {
			path = ""
		} else {
			path = path[:cut]
		}
	}
}

// Kind returns the object's kind: KindDeployment, KindReplicaSet or KindPod.
func (o Object) Kind() Kind {
	switch o.Obj.(type) {
	case *appsv1.Deployment:
		return KindDeployment
	case *appsv1.ReplicaSet:
		return KindReplicaSet
	case *corev1.Pod:
		return KindPod
	}
	return 0
}

// Workers are the number of concurrent sync workers per controller
// (kube-controller-manager's --concurrent-*-syncs, both 5 by default).
type Workers struct {
	// ReplicaSet is at least 1.
	ReplicaSet int `json:"replicaset"`
	// Deployment is at least 1.
	Deployment int `json:"deployment"`
}

// ClusterSpec is the simulated cluster of spec.cluster.
type ClusterSpec struct {
	// Nodes are the node names (spec.cluster.nodes: a count N gives
	// node-1..node-N); never empty, names unique.
	Nodes []string `json:"nodes"`
	// InformerLag delays every watch delivery to the controllers' informers.
	InformerLag time.Duration `json:"informerLag"`
	// Workers per controller.
	Workers Workers `json:"workers"`
	// ScheduleDelay, ShutdownDelay, NodeMonitorGracePeriod and
	// EvictionTimeout are the kubelet.Config fields of the same names.
	ScheduleDelay          time.Duration `json:"scheduleDelay"`
	ShutdownDelay          time.Duration `json:"shutdownDelay"`
	NodeMonitorGracePeriod time.Duration `json:"nodeMonitorGracePeriod"`
	EvictionTimeout        time.Duration `json:"evictionTimeout"`
	// DefaultImage applies to images without a profile of their own.
	DefaultImage kubelet.ImageProfile `json:"defaultImage"`
	// Images maps an image reference to its profile. A profile given in the
	// file starts from DefaultImage and overrides only the fields it names.
	Images map[string]kubelet.ImageProfile `json:"images,omitempty"`
	// TurnOrder decides which controller syncs next when several have work
	// at the same instant (spec.cluster.turnOrder; default alternate).
	TurnOrder sim.TurnOrder `json:"turnOrder,omitzero"`
}

// KubeletConfig returns the cluster model's configuration.
func (c ClusterSpec) KubeletConfig() kubelet.Config {
	cfg := kubelet.Config{
		Nodes:                  append([]string(nil), c.Nodes...),
		Default:                c.DefaultImage,
		ScheduleDelay:          c.ScheduleDelay,
		ShutdownDelay:          c.ShutdownDelay,
		NodeMonitorGracePeriod: c.NodeMonitorGracePeriod,
		EvictionTimeout:        c.EvictionTimeout,
	}
	if len(c.Images) > 0 {
		cfg.Images = make(map[string]kubelet.ImageProfile, len(c.Images))
		for k, v := range c.Images {
			cfg.Images[k] = v
		}
	}
	return cfg
}

// DefaultCluster is the cluster of a scenario that says nothing about it:
// kubelet.Defaults, no informer lag, 5 workers per controller.
func DefaultCluster() ClusterSpec {
	k := kubelet.Defaults()
	return ClusterSpec{
		Nodes:                  k.Nodes,
		Workers:                Workers{ReplicaSet: 5, Deployment: 5},
		ScheduleDelay:          k.ScheduleDelay,
		ShutdownDelay:          k.ShutdownDelay,
		NodeMonitorGracePeriod: k.NodeMonitorGracePeriod,
		EvictionTimeout:        k.EvictionTimeout,
		DefaultImage:           k.Default,
	}
}

// Limits bound a simulation run (spec.limits). The front end caps what a
// file may ask for: see Ceilings and CheckLimits (limits.go).
type Limits struct {
	// MaxPods is the most pods that may exist at once; 1..MaxPodsLimit.
	MaxPods int `json:"maxPods"`
	// MaxSteps is the most simulator steps in a run; 1..MaxStepsLimit.
	MaxSteps int `json:"maxSteps"`
	// MaxTraceRecords is the most trace records a run may write (the
	// trace is most of a long run's memory); 1..MaxTraceRecordsLimit.
	MaxTraceRecords int `json:"maxTraceRecords"`
	// At locates each limit the file sets, for errors about it.
	At LimitsAt `json:"-"`
}

// LimitsAt is where the file sets its limits: the Scenario document and
// the line of each value (0: not set in the file).
type LimitsAt struct {
	Doc                                int
	MaxPods, MaxSteps, MaxTraceRecords int
}

// Defaults and hard bounds of the scenario schema.
const (
	// DefaultMaxPods and DefaultMaxSteps apply when spec.limits omits them.
	DefaultMaxPods         = 10000
	DefaultMaxSteps        = 200000
	DefaultMaxTraceRecords = 1000000
	// MaxPodsLimit and MaxStepsLimit are the largest limits a file may ask
	// for.
	MaxPodsLimit         = 100000
	MaxStepsLimit        = 10000000
	MaxTraceRecordsLimit = 100000000
	// MaxNodes is the largest cluster a file may ask for.
	MaxNodes = 1000
	// MaxTimelineActions is the longest timeline a file may hold.
	MaxTimelineActions = 10000
	// MaxFileBytes is the largest file Parse accepts (1 MiB).
	MaxFileBytes = 1 << 20
	// MaxDocuments is the most YAML documents a file may hold.
	MaxDocuments = 500
	// MaxErrors is the most errors Parse reports before it stops.
	MaxErrors = 20
	// maxNodeVisits bounds the YAML nodes visited per document, counting
	// alias expansions, so an alias bomb fails fast.
	maxNodeVisits = 1000000
)
