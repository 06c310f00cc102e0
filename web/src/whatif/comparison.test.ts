import { describe, expect, it } from 'vitest';
import '../i18n/all';
import '../i18n/whatif';
import { chartEnd, finalText, sameEnd, seconds, type Summary, summaryRows } from './comparison';

const base: Summary = {
  label: 'A', forkStep: 10, forkAtNs: 3e9, endStep: 400, endAtNs: 600e9, complete: true, completeAtNs: 15e9, timeToCompleteNs: 12e9,
  desired: 20, peakPods: 21, peakSurge: 1, peakReplicaSetTotal: 21, minAvailable: 15, podsCreated: 20, podsDeleted: 20,
  syncs: { 'deployment-controller': 40, 'replicaset-controller': 45 },
  final: [{ namespace: 'default', name: 'web', replicas: 20, available: 20, complete: true, images: ['nginx:1.26'], replicaSets: [] }],
};

describe('summary table', () => {
  it('lists A and B side by side and marks the better number', () => {
    const b: Summary = { ...base, label: 'B', timeToCompleteNs: 3e9, peakPods: 40, peakSurge: 20, peakReplicaSetTotal: 35, syncs: { 'deployment-controller': 20, 'replicaset-controller': 45 } };
    const rows = summaryRows([base, b]);
    expect(rows.map((r) => [r.label, ...r.cells, r.best])).toEqual([
      ['Time to complete (from the fork)', '12s', '3s', 1],
      ['Peak pods (surge over desired)', '21 (+1)', '40 (+20)', undefined],
      ['Peak ReplicaSet total (bounded by maxSurge)', '21', '35', undefined],
      ['Minimum available', '15', '15', undefined],
      ['Pods created', '20', '20', undefined],
      ['Pods deleted', '20', '20', undefined],
      ['Syncs: deployment-controller', '40', '20', 1],
      ['Syncs: replicaset-controller', '45', '45', undefined],
      ['Final state', 'web 20/20 nginx:1.26', 'web 20/20 nginx:1.26', undefined],
    ]);
  });
  it('says when a run did not complete, and ranks nothing then', () => {
    const b: Summary = { ...base, complete: false, final: [{ ...base.final![0]!, available: 12, complete: false }] };
    const rows = summaryRows([base, b]);
    expect(rows[0]).toEqual({ label: 'Time to complete (from the fork)', cells: ['12s', 'not complete'], best: undefined });
    expect(finalText(b)).toBe('web 12/20 nginx:1.26 (not rolled out)');
  });
  it('marks nothing best when the runs end differently (a run that rolled nothing out is not the fastest)', () => {
    const none: Summary = { ...base, label: 'B', timeToCompleteNs: 0, podsCreated: 0, podsDeleted: 0, minAvailable: 20, final: [{ ...base.final![0]!, images: ['nginx:1.25'] }] };
    expect(sameEnd([base, none])).toBe(false);
    expect(summaryRows([base, none]).filter((r) => r.best !== undefined)).toEqual([]);
    expect(sameEnd([base, { ...base, final: [{ ...base.final![0]!, available: 19 }] }])).toBe(true);
  });
  it('formats seconds', () => {
    expect(seconds(12e9)).toBe('12s');
    expect(seconds(1.5e9)).toBe('1.5s');
  });
});

describe('chart end', () => {
  it('ends a fifth after the last completion, or at the end of a run that never completed', () => {
    expect(chartEnd([base, { ...base, completeAtNs: 6e9 }])).toBe(18e9);
    expect(chartEnd([base, { ...base, complete: false, endAtNs: 600e9 }])).toBe(720e9);
    expect(chartEnd([{ ...base, completeAtNs: 0 }])).toBe(1e9);
  });
});
