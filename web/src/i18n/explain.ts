// The English text of the panels' "What am I looking at?" boxes. It loads
// with its own chunk the first time a box is opened (player.ts), so it stays
// out of the first load; the Chinese text comes with the zh-CN dictionaries.
import { register } from './index';

const en: Record<string, string> = {
  'player.explain.cluster':
    'Each Deployment holds its ReplicaSets side by side (newest first); each square is a pod. Squares change colour as a pod is scheduled, starts, becomes ready and, after minReadySeconds, available; a dashed outline is a pod shutting down. The Deployment controller ({fn:syncDeployment}) only changes ReplicaSet sizes; the ReplicaSet controller ({fn:syncReplicaSet}) creates and deletes the pods. A blue ring marks a pod the ReplicaSet adopted in this step ({fn:ClaimPods}: a matching pod without a controller gets an ownerReference), a pink dashed ring one it released. Under the pods, each node with its pod count: a failed node shows "not responding" while the API still has it Ready, until the node lifecycle controller marks it NotReady once nodeMonitorGracePeriod has passed; a Deployment or ReplicaSet being deleted names the finalizer it waits on (foregroundDeletion: its dependents go first, a ReplicaSet\'s pods or a Deployment\'s ReplicaSets; orphan: the garbage collector releasing them).',
  'player.explain.math':
    'The numbers behind the decision made in this step, as the controller computed them. Rolling updates: {fn:reconcileNewReplicaSet} grows the new ReplicaSet up to maxTotalPods = replicas + maxSurge ({fn:NewRSNewReplicas}); {fn:reconcileOldReplicaSets} shrinks old ones while at least minAvailable = replicas − maxUnavailable stay available, first removing unhealthy replicas ({fn:cleanupUnhealthyReplicas}), then {fn:scaleDownOldReplicaSetsForRollingUpdate}. Percentages are resolved by {fn:ResolveFenceposts}: maxSurge rounds up, maxUnavailable rounds down, and if both come out 0 maxUnavailable becomes 1 (the fencepost rule) so a rollout can progress. When replicas change mid-rollout, {fn:scale} spreads the difference in proportion to each ReplicaSet\'s size ({fn:getReplicaSetFraction}). The ReplicaSet controller\'s {fn:manageReplicas} creates or deletes pods to match spec.replicas.',
  'player.explain.chart':
    'spec.replicas of every ReplicaSet (solid, dashed and dotted lines in different colours) and the Deployment\'s available pods (thick dotted line) over the run. The x axis counts steps by default, so the quick initial scale-up does not squeeze the rollout; choose virtual time to see real durations, or zoom. The red dashed line is the current step; click to go there.',
  'player.explain.queue':
    'Each controller has a workqueue ({fn:Type}). queue: keys waiting for a worker, in order. dirty: keys that need a sync (a key is never queued twice). processing: keys a worker is syncing now; if a key changes while processing it is marked dirty and queued again when the sync ends. waiting: delayed adds ({fn:AddAfter}), e.g. the progress-deadline check or a minReadySeconds re-check. requeues: keys that failed and came back with exponential back-off ({fn:AddRateLimited}).',
  'player.explain.exp':
    'After the ReplicaSet controller asks for pod creations or deletions it records how many it expects to see. Until the informer has delivered them (or 5 minutes pass), {fn:SatisfiedExpectations} is false and {fn:manageReplicas} is skipped, so the controller does not act twice on a stale cache.',
  'player.explain.trace':
    'Every record of this step in order: API requests, watch deliveries, queue operations, decisions with their inputs, kubelet transitions and events. Open a record to see its data. Use the arrow keys to move between records.',
  'player.explain.steps':
    'Every step computed so far. A step is one event: a watch delivery to an informer, a controller sync, a kubelet transition, a timer or an action. Click a step (or use the arrow keys) to go back to it.',
  'player.explain.act':
    'Change the cluster as kubectl would, at the current step. An action after a rewind replaces the future that was computed.',
  'player.explain.kubectl':
    'The output kubectl v1.36 would print for the cluster at this step.',
};

register('explain', { en });
