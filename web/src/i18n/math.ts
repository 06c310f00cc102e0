// Strings of the math panel's formulas and notes (web/src/math.ts). Numbers
// and upstream field names stay as they are; the words around them change.
import { register } from './index';

const en: Record<string, string> = {
  "math.expLine": "{key}: expected adds {add}, deletes {del} ({reason})",
  "math.diff": "diff = active {active} − desired {desired} = {diff}",
  "math.action.create": "create",
  "math.action.delete": "delete",
  "math.action.nothing": "nothing",
  "math.action.skipped": "skipped",
  "math.batches": "(slow start batches {list})",
  "math.strategyNewRS": "strategy {strategy}: new RS = replicas {replicas}",
  "math.currentPods": "Σ spec.replicas of all ReplicaSets {n}",
  "math.specSumNote": "Σ spec.replicas is what the ReplicaSets ask for, not the pods that exist: pods still terminating are not in it, so more pods than maxTotalPods can exist for a while",
  "math.atCapacity": "Σ spec.replicas {current} ≥ maxTotalPods {max} → new RS stays {result}",
  "math.scaleUp": "scale up = min({max} − {current}, {replicas} − {rs}) = {n}",
  "math.newRS": "new RS = {rs} + {n} = {result}",
  "math.percentUp": "{name} = {input} of {replicas} = {raw}, rounded up → {value}",
  "math.percentDown": "{name} = {input} of {replicas} = {raw}, rounded down → {value}",
  "math.unset": "{name} unset → 0",
  "math.absolute": "{name} = {value} (absolute, no rounding)",
  "math.noFenceposts": "strategy {strategy}: no maxSurge / maxUnavailable",
  "math.rounding": "maxSurge rounds up, maxUnavailable rounds down",
  "math.fencepostRule": "fencepost rule: both resolved to 0, so maxUnavailable = {n} (a rollout must be able to progress)",
  "math.zeroReplicas": "replicas 0 forces maxUnavailable 0",
  "math.clamped": "maxUnavailable clamped to replicas {replicas}",
  "math.noOldPods": "old pods 0 → nothing to scale down",
  "math.newUnavailable": "new RS unavailable = {rs} − {avail} available = {n}",
  "math.maxScaledDown": "maxScaledDown = Σ spec.replicas {all} − minAvailable {min} − new RS unavailable {un} = {n}",
  "math.cleanup": "cleanupUnhealthyReplicas (removed {n})",
  "math.cleanupFirst": "first, cleanupUnhealthyReplicas removes {n} unavailable pod(s) of old ReplicaSets (table below)",
  "math.scaleDownThen": "then scale down = available {avail} − minAvailable {min} = {n}",
  "math.scaleDown": "scale down = available {avail} − minAvailable {min} = {n}",
  "math.scaledDown": "scaled down (oldest first)",
  "math.totalScaledDown": "total scaled down {n}",
  "math.stopped": "stopped: {why}",
  "math.fractionNote": "fraction rounds half away from zero; the leftover goes to the first RS in order",
  "math.nothingToScale": "several active RSs and strategy is not RollingUpdate → nothing to do",
  "math.expSatisfied": "→ satisfied: manageReplicas runs",
  "math.expNotSatisfied": "→ not satisfied: manageReplicas skipped this sync",
  "math.pendingDeletes": "pending deletes: {list}",
  "math.ranked": "ranked, victims first",
  "math.scalingEvent": "→ scaling event ({what} differs)",
  "math.noScalingEvent": "→ no scaling event",
};

export const mathStrings = { en };
register('math', mathStrings);
