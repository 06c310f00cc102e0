import { describe, expect, it } from 'vitest';
import { claimsOf, diffViews, podsByOwner, podState } from './diff';
import type { PodView, TraceRecord, View } from './types';

const pod = (name: string, over: Partial<PodView> = {}): PodView => ({ namespace: 'default', name, owner: 'rs-a', phase: 'Running', status: 'Running', ready: true, available: true, terminating: false, restarts: 0, image: 'x', ...over });
const view = (over: Partial<View>): View => ({
  scenario: 's', seed: 1, step: 0, maxStep: 0, atNs: 0, now: '', idle: false, deployments: null, replicaSets: null, pods: null,
  nodes: null, queues: null, expectations: null, records: null, pendingActions: null, ...over,
});
const claim = (object: string, action: string, outcome: string): TraceRecord => ({ seq: 1, step: 1, atNs: 0, source: 'replicaset-controller', kind: 'decision', type: 'ClaimDecision', text: '', data: { owner: 'ReplicaSet default/rs-a', object, action, outcome, why: '' } });

describe('claimsOf', () => {
  it('collects adopted and released pods that went through', () => {
    const c = claimsOf([claim('Pod default/p1', 'adopt', 'done'), claim('Pod default/p2', 'release', 'done'), claim('Pod default/p3', 'adopt', 'refused'), claim('ReplicaSet default/x', 'adopt', 'done')]);
    expect([...c.adopted]).toEqual(['default/p1']);
    expect([...c.released]).toEqual(['default/p2']);
  });
});

describe('diffViews', () => {
  it('finds added and removed pods and resized and new ReplicaSets', () => {
    const rs = (name: string, desired: number) => ({ namespace: 'default', name, desired, current: 0, ready: 0, available: 0, images: null });
    const a = view({ pods: [pod('p1'), pod('p2')], replicaSets: [rs('rs-a', 10)] });
    const b = view({ pods: [pod('p2'), pod('p3')], replicaSets: [rs('rs-a', 8), rs('rs-b', 3)] });
    const d = diffViews(a, b);
    expect(d.addedPods).toEqual(['p3']);
    expect(d.removedPods).toEqual(['p1']);
    expect([...d.resized]).toEqual([['rs-a', [10, 8]]]);
    expect(d.addedReplicaSets).toEqual(['rs-b']);
    expect(diffViews(null, b).addedPods).toEqual(['p2', 'p3']);
  });
});

describe('podsByOwner and podState', () => {
  it('groups by namespace and owner, orphans under "namespace/"', () => {
    const { owner: _o, ...orphan } = pod('o1');
    const g = podsByOwner([pod('p1'), orphan, pod('p2', { owner: 'rs-b' }), pod('p3', { namespace: 'prod' })]);
    // Two namespaces' rs-a are two groups.
    expect([...g.keys()]).toEqual(['default/rs-a', 'default/', 'default/rs-b', 'prod/rs-a']);
  });
  it('orders terminating over available over ready', () => {
    expect(podState(pod('a', { terminating: true }))).toBe('terminating');
    expect(podState(pod('a'))).toBe('available');
    expect(podState(pod('a', { available: false }))).toBe('ready');
    expect(podState(pod('a', { available: false, ready: false, status: 'CrashLoopBackOff' }))).toBe('failed');
    expect(podState(pod('a', { available: false, ready: false }))).toBe('running');
    expect(podState(pod('a', { available: false, ready: false, phase: 'Pending', status: 'Pending' }))).toBe('pending');
  });
});
