// The shapes the bridge returns (docs/bridge-api.md). The Go source of truth is
// engine/session/view.go, engine/sim/step.go and engine/trace/record.go; only
// the fields the UI reads are typed here.

/** What one step was. */
export type StepKind = 'action' | 'watch' | 'timer' | 'kubelet' | 'gc' | 'sync';

/** One simulator step. */
export interface StepInfo {
  step: number;
  kind: StepKind;
  /** What acted, e.g. "deployment-controller" or "informer/pods". */
  component: string;
  key?: string;
  /** Virtual time since the start, in nanoseconds. */
  atNs: number;
  firstSeq: number;
  lastSeq: number;
}

/** Trace record kinds (engine/trace/kind.go). */
export type RecordKind = 'api' | 'watch' | 'queue' | 'sync' | 'decision' | 'kubelet' | 'gc' | 'event' | 'action' | 'sim' | 'turn';

/** One trace record; `data` is the payload named by `type`. */
export interface TraceRecord {
  seq: number;
  step: number;
  atNs: number;
  source: string;
  kind: RecordKind;
  type: string;
  text: string;
  data: unknown;
}

export interface StatusCount {
  replicas: number;
  updated: number;
  ready: number;
  available: number;
  unavailable: number;
  terminating?: number;
}

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface DeploymentView {
  namespace: string;
  name: string;
  uid: string;
  generation: number;
  observedGeneration: number;
  replicas: number;
  strategy: string;
  maxSurge?: string;
  maxUnavailable?: string;
  minReadySeconds: number;
  paused: boolean;
  revision?: string;
  images: string[] | null;
  status: StatusCount;
  conditions: Condition[] | null;
  deleting?: boolean;
  /** While deleting: what the object waits for (foregroundDeletion: its blocking dependents; orphan: the garbage collector releasing them). */
  finalizers?: string[];
  /** A rolling update's resolved bounds (maxSurge rounded up, maxUnavailable down); absent for Recreate. */
  budget?: { maxSurge: number; maxUnavailable: number };
}

export interface ReplicaSetView {
  namespace: string;
  name: string;
  /** Controlling Deployment's name, absent for none. */
  owner?: string;
  revision?: string;
  podTemplateHash?: string;
  desired: number;
  current: number;
  ready: number;
  available: number;
  terminating?: number;
  images: string[] | null;
  deleting?: boolean;
  /** While deleting: what the object waits for (foregroundDeletion: its blocking dependents; orphan: the garbage collector releasing them). */
  finalizers?: string[];
}

export interface PodView {
  namespace: string;
  name: string;
  /** Controlling ReplicaSet's name, absent for an orphan. */
  owner?: string;
  node?: string;
  phase: string;
  status: string;
  ready: boolean;
  available: boolean;
  terminating: boolean;
  restarts: number;
  image: string;
  /** Why the scheduler placed it on no node (its PodScheduled condition's message); absent while it has not failed to. */
  unschedulable?: string;
}

export interface NodeView {
  name: string;
  /** The API's Ready condition; down: the node stopped responding, which the API shows only after the node controller's grace period. */
  ready: boolean;
  down?: boolean;
  pods: number;
}

/** A workqueue snapshot (engine/workqueue State). */
export interface QueueState {
  queue: { key: string; reasons: string[] | null }[] | null;
  dirty: string[] | null;
  processing: string[] | null;
  waiting: { key: string; readyAt: string; reason: string }[] | null;
  requeues: { key: string; count: number; lastBackoffNs: number }[] | null;
}

export interface QueueView {
  controller: string;
  state: QueueState;
}

/** The ReplicaSet controller's expectations for one ReplicaSet. */
export interface ExpectationsEntry {
  key: string;
  add: number;
  del: number;
  pendingDeleteKeys: string[] | null;
  setAt: string;
  satisfied: boolean;
  expired: boolean;
}

/** The picture after the current step. Go marshals empty slices as null. */
export interface View {
  scenario: string;
  seed: number;
  step: number;
  maxStep: number;
  atNs: number;
  now: string;
  idle: boolean;
  stopped?: string;
  deployments: DeploymentView[] | null;
  replicaSets: ReplicaSetView[] | null;
  pods: PodView[] | null;
  nodes: NodeView[] | null;
  queues: QueueView[] | null;
  expectations: ExpectationsEntry[] | null;
  lastStep?: StepInfo;
  records: TraceRecord[] | null;
  pendingActions: string[] | null;
  /** The user actions made at this step (described as kubectl would say them), which a fork here replaces unless keepAt. */
  actionsHere?: string[];
  /**
   * Names the pods listed: two views of one session (one load) with the
   * same token list the same pods. Two sessions can give the same token:
   * withPods compares with the view shown when the answer is applied
   * (after a load's), not with the one the call was sent from.
   */
  podsToken?: string;
  /** The call gave podsSince and it is this view's token: pods is null (withPods puts back the list held). */
  podsSame?: boolean;
}

export interface Sample {
  step: number;
  atNs: number;
  /** namespace is absent for "default". */
  replicaSets: { namespace?: string; name: string; owner?: string; desired: number; current: number; ready: number; available: number }[] | null;
  deployments: { namespace?: string; name: string; replicas: number; updated: number; available: number }[] | null;
}

/** What load, advance, seek, act and view return. */
export interface Snapshot {
  view: View;
  steps?: StepInfo[];
  message?: string;
  samples?: Sample[];
  /** Notices of the loaded file (load only; docs/bridge-api.md). */
  notices?: Notice[];
}

/** Something a file that loaded should tell its user (engine/scenario Notice). */
export interface Notice {
  doc?: number;
  line?: number;
  kind?: string;
  name?: string;
  /** ignored | replaced | default-scenario | live | stripped | limit | paused | scheduling */
  code: string;
  message: string;
}

/** One built-in scenario. */
export interface LibraryEntry {
  id: string;
  name: string;
  description: string;
  /** The description in other languages, by language tag (metadata.translations). */
  translations?: Record<string, { description: string }>;
  source: string;
}

/** A user action (same vocabulary as scenario timeline entries). */
export type UserAction =
  | { type: 'scale'; target: string; replicas: number }
  | { type: 'setImage'; target: string; image: string; container?: string }
  | { type: 'pause' | 'resume' | 'restart'; target: string }
  | { type: 'undo'; target: string; toRevision?: number }
  | { type: 'delete'; target: string; propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' }
  | { type: 'delete'; target: string; options: { propagationPolicy?: string; orphanDependents?: boolean } }
  | { type: 'deletePod'; name: string }
  | { type: 'failNode' | 'recoverNode'; node: string }
  | { type: 'removeFinalizer'; target: string; finalizer: string }
  | { type: 'writeStatus'; target: string; replicas: number; via: 'status' | 'main' };

/** `x ?? []` for the slices Go marshals as null. */
export function list<T>(xs: T[] | null | undefined): T[] {
  return xs ?? [];
}
