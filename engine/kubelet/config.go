package kubelet

import "time"

// ImageProfile describes how containers of one image behave.
type ImageProfile struct {
	// StartDelay is the time from binding to the containers running (image
	// pull plus start).
	StartDelay time.Duration `json:"startDelay"`
	// ReadyDelay is the time from running to the application answering
	// (the readiness probe can pass). A container without readinessProbe is
	// ready then; one with a probe at its first probe from then on (see
	// probes.go).
	ReadyDelay time.Duration `json:"readyDelay"`
	// Jitter is the upper bound of a uniform extra delay added to each of
	// the two delays above.
	Jitter time.Duration `json:"jitter"`
	// CrashLoop makes containers exit CrashAfter after each start; the pod
	// never becomes ready and its restartCount grows with the kubelet's
	// back-off (10s doubling to 5m).
	CrashLoop bool `json:"crashLoop"`
	// CrashAfter is how long a crash-looping container runs before exiting.
	CrashAfter time.Duration `json:"crashAfter"`
	// NeverReady keeps containers running but failing their readiness probe.
	NeverReady bool `json:"neverReady"`
	// HangAfter, when set, makes the application stop answering this long
	// after each container (re)start, as a deadlocked process does: from
	// then on every readiness and liveness probe fails. A container with a
	// readinessProbe turns NotReady after failureThreshold failures; one
	// with a livenessProbe is killed and restarted by the kubelet after
	// failureThreshold failures (restartCount grows, same pod). Without
	// probes nobody notices: the pod stays Ready. This is how a scenario
	// makes a probe fail; a livenessProbe whose initialDelaySeconds and
	// failureThreshold end before the application answers (ReadyDelay)
	// fails the same way.
	HangAfter time.Duration `json:"hangAfter,omitempty"`
	// PullError makes the image impossible to pull (a wrong tag, a
	// registry that refuses): the containers never start, and the bound
	// pod stays Pending with its containers waiting in ImagePullBackOff.
	// A pasted pod in ImagePullBackOff or ErrImagePull gives its image
	// this profile unless the scenario gives one (scenario.restoreLive).
	PullError bool `json:"pullError,omitempty"`
}

// Healthy reports whether pods of this image can become ready and stay so.
func (p ImageProfile) Healthy() bool {
	return !p.CrashLoop && !p.NeverReady && p.HangAfter == 0 && !p.PullError
}

// Summary says in a few words how containers of the image behave:
// "failing to pull", "crash-looping", "never ready", "hanging after 30s"
// or "healthy".
func (p ImageProfile) Summary() string {
	switch {
	case p.PullError:
		return "failing to pull"
	case p.CrashLoop:
		return "crash-looping"
	case p.NeverReady:
		return "never ready"
	case p.HangAfter > 0:
		return "hanging after " + p.HangAfter.String()
	}
	return "healthy"
}

// Config holds the cluster model's tunables.
type Config struct {
	// Nodes are the node names, created at start (default node-1..node-3).
	Nodes []string `json:"nodes"`
	// Default applies to images without a profile of their own.
	Default ImageProfile `json:"default"`
	// Images maps an image reference ("nginx:1.25") to its profile.
	Images map[string]ImageProfile `json:"images"`
	// ScheduleDelay is the time from pod creation to binding.
	ScheduleDelay time.Duration `json:"scheduleDelay"`
	// ShutdownDelay is how long containers take to exit after SIGTERM; the
	// pod is removed after min(ShutdownDelay, grace period).
	ShutdownDelay time.Duration `json:"shutdownDelay"`
	// NodeMonitorGracePeriod is the time from a node failing (its kubelet
	// stops reporting) to the node lifecycle controller marking it and its
	// pods NotReady and tainting it node.kubernetes.io/unreachable:NoExecute:
	// kube-controller-manager's --node-monitor-grace-period, 50s by default
	// since v1.32 (40s before).
	NodeMonitorGracePeriod time.Duration `json:"nodeMonitorGracePeriod"`
	// EvictionTimeout is the time from that taint to the node's pods being
	// deleted: the tolerationSeconds of the unreachable:NoExecute
	// toleration every pod gets by default (admission plugin
	// DefaultTolerationSeconds, 300s). Pods are deleted
	// NodeMonitorGracePeriod + EvictionTimeout after the failure.
	EvictionTimeout time.Duration `json:"evictionTimeout"`
}

// Defaults returns the configuration used when a scenario says nothing.
func Defaults() Config {
	return Config{
		Nodes:                  []string{"node-1", "node-2", "node-3"},
		Default:                ImageProfile{StartDelay: 2 * time.Second, ReadyDelay: 1 * time.Second, CrashAfter: 3 * time.Second},
		ScheduleDelay:          0,
		ShutdownDelay:          2 * time.Second,
		NodeMonitorGracePeriod: 50 * time.Second,
		EvictionTimeout:        300 * time.Second,
	}
}

// Profile returns the profile for image.
func (c *Config) Profile(image string) ImageProfile {
	if p, ok := c.Images[image]; ok {
		return p
	}
	return c.Default
}
