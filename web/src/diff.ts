// What changed between two views, and what the current step did to pod
// ownership: used to highlight changes without re-rendering everything.

import type { PodView, ReplicaSetView, TraceRecord, View } from './types';
import { list } from './types';

/** Pod ownership changes of one step, from its ClaimDecision records. */
export interface Claims {
  /** Pods adopted in this step, as namespace/name. */
  adopted: Set<string>;
  /** Pods released in this step, as namespace/name. */
  released: Set<string>;
}

/**
 * Reads the ClaimDecision records of a step. Only attempts that went through
 * ("done") count; "Pod default/x" becomes "default/x".
 */
export function claimsOf(records: readonly TraceRecord[]): Claims {
  const out: Claims = { adopted: new Set(), released: new Set() };
  for (const r of records) {
    if (r.type !== 'ClaimDecision') continue;
    const d = r.data as { object?: string; action?: string; outcome?: string };
    if (d.outcome !== 'done' || typeof d.object !== 'string' || !d.object.startsWith('Pod ')) continue;
    const name = d.object.slice(4);
    if (d.action === 'adopt') out.adopted.add(name);
    else if (d.action === 'release') out.released.add(name);
  }
  return out;
}

/** How the cluster changed from one view to the next. */
export interface ViewDiff {
  /** Pods present now but not before. */
  addedPods: string[];
  /** Pods present before but not now. */
  removedPods: string[];
  /** ReplicaSets whose desired size changed: name → [before, after]. */
  resized: Map<string, [number, number]>;
  /** ReplicaSets that appeared. */
  addedReplicaSets: string[];
}

/** Compares two views (prev may be null: everything is new). */
export function diffViews(prev: View | null, next: View): ViewDiff {
  const before = new Map<string, PodView>();
  for (const p of list(prev?.pods)) before.set(p.name, p);
  const now = new Set<string>();
  const addedPods: string[] = [];
  for (const p of list(next.pods)) {
    now.add(p.name);
    if (!before.has(p.name)) addedPods.push(p.name);
  }
  const removedPods = [...before.keys()].filter((n) => !now.has(n));
  const rsBefore = new Map<string, ReplicaSetView>();
  for (const rs of list(prev?.replicaSets)) rsBefore.set(rs.name, rs);
  const resized = new Map<string, [number, number]>();
  const addedReplicaSets: string[] = [];
  for (const rs of list(next.replicaSets)) {
    const old = rsBefore.get(rs.name);
    if (!old) addedReplicaSets.push(rs.name);
    else if (old.desired !== rs.desired) resized.set(rs.name, [old.desired, rs.desired]);
  }
  return { addedPods, removedPods, resized, addedReplicaSets };
}

/**
 * Groups pods by owning ReplicaSet, as namespace/name ("namespace/" for
 * orphans), keeping order.
 */
export function podsByOwner(pods: readonly PodView[]): Map<string, PodView[]> {
  const out = new Map<string, PodView[]>();
  for (const p of pods) {
    const k = `${p.namespace}/${p.owner ?? ''}`;
    let xs = out.get(k);
    if (!xs) out.set(k, (xs = []));
    xs.push(p);
  }
  return out;
}

/** The CSS state of a pod square: one word. */
export function podState(p: PodView): 'terminating' | 'available' | 'ready' | 'failed' | 'running' | 'pending' {
  if (p.terminating) return 'terminating';
  if (p.available) return 'available';
  if (p.ready) return 'ready';
  if (p.phase === 'Failed' || /CrashLoop|Error|BackOff/.test(p.status)) return 'failed';
  if (p.phase === 'Running') return 'running';
  return 'pending';
}
