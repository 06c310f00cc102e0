// Where an upstream decision lives: the function names the math panel and
// the explanations mention, linked to their file at the v1.36.3 tag.

const BASE = 'https://github.com/kubernetes/kubernetes/blob/v1.36.3/';
const DEPLOY = 'pkg/controller/deployment/';
const UTIL = `${DEPLOY}util/deployment_util.go`;
const QUEUE = 'staging/src/k8s.io/client-go/util/workqueue/';

/** File of each upstream function the UI names. */
export const SOURCES: Readonly<Record<string, string>> = {
  reconcileOldReplicaSets: `${DEPLOY}rolling.go`,
  reconcileNewReplicaSet: `${DEPLOY}rolling.go`,
  scaleDownOldReplicaSetsForRollingUpdate: `${DEPLOY}rolling.go`,
  cleanupUnhealthyReplicas: `${DEPLOY}rolling.go`,
  rolloutRolling: `${DEPLOY}rolling.go`,
  syncDeployment: `${DEPLOY}deployment_controller.go`,
  scale: `${DEPLOY}sync.go`,
  isScalingEvent: `${DEPLOY}sync.go`,
  syncRolloutStatus: `${DEPLOY}progress.go`,
  NewRSNewReplicas: UTIL,
  ResolveFenceposts: UTIL,
  getReplicaSetFraction: UTIL,
  GetProportion: UTIL,
  syncReplicaSet: 'pkg/controller/replicaset/replica_set.go',
  manageReplicas: 'pkg/controller/replicaset/replica_set.go',
  getPodsToDelete: 'pkg/controller/replicaset/replica_set.go',
  SatisfiedExpectations: 'pkg/controller/controller_utils.go',
  ClaimPods: 'pkg/controller/controller_ref_manager.go',
  ClaimReplicaSets: 'pkg/controller/controller_ref_manager.go',
  Type: `${QUEUE}queue.go`,
  AddAfter: `${QUEUE}delaying_queue.go`,
  AddRateLimited: `${QUEUE}rate_limiting_queue.go`,
};

/** The GitHub URL of an upstream function's file, or null when unknown. */
export function sourceURL(fn: string): string | null {
  const f = SOURCES[fn];
  return f ? BASE + f : null;
}

/**
 * Splits text with {fn:name} markers into text and links (a: the function's
 * file at v1.36.3, code-formatted).
 *
 *   withLinks('see {fn:scale}') → ['see ', <a href=".../sync.go"><code>scale</code></a>]
 */
export function withLinks(text: string): Node[] {
  const out: Node[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{fn:(\w+)\}/g)) {
    out.push(document.createTextNode(text.slice(last, m.index)));
    out.push(fnLink(m[1]!));
    last = (m.index ?? 0) + m[0].length;
  }
  out.push(document.createTextNode(text.slice(last)));
  return out;
}

/** A code-formatted function name, linked to its source when known. */
export function fnLink(fn: string): HTMLElement {
  const code = document.createElement('code');
  code.textContent = fn;
  const url = sourceURL(fn);
  if (!url) return code;
  const a = document.createElement('a');
  a.href = url;
  a.target = '_blank';
  a.rel = 'noopener';
  a.append(code);
  return a;
}
