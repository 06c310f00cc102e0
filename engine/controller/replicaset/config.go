package replicaset

// ControllerName is the actor of the controller's API requests, the trace
// source of its records and the component of its Events.
const ControllerName = "replicaset-controller"

// QueueName is the name of the controller's workqueue.
const QueueName = "replicaset"

// DefaultBurstReplicas caps the pods created or deleted by one sync
// (upstream BurstReplicas).
const DefaultBurstReplicas = 500

// slowStartInitialBatchSize is the size of the first create batch.
const slowStartInitialBatchSize = 1

// statusUpdateRetries is how many times a failed status write is retried
// after a fresh GET.
const statusUpdateRetries = 1

// rankingSurvivorsShown is how many best-ranked survivors a deletion
// ranking record lists after the victims.
const rankingSurvivorsShown = 3

// Config holds the controller's tunables.
type Config struct {
	// BurstReplicas caps the creates or deletes of one sync; values <= 0
	// mean DefaultBurstReplicas.
	BurstReplicas int
	// StaleCacheGate is the StaleControllerConsistencyReplicaSet feature
	// gate (on by default in v1.36): a sync fails fast until the informers
	// have applied this controller's own writes.
	StaleCacheGate bool
}

// DefaultConfig returns the v1.36.3 defaults: burst 500, stale-cache gate on.
func DefaultConfig() Config {
	return Config{BurstReplicas: DefaultBurstReplicas, StaleCacheGate: true}
}
