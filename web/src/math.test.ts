import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fencepostSide, formatMath, mathOf, newRSLines, proportionalTable, RANKING_HEAD, RANKING_TAIL, signed } from './math';
import type { TraceRecord } from './types';

// Records captured from the engine (rolling-update-10-3-2, seed 1; proportional-scaling, seed 1).
const fixture = JSON.parse(readFileSync(new URL('./testdata/math-records.json', import.meta.url), 'utf8')) as Record<string, TraceRecord>;
const rec = (name: string): TraceRecord => {
  const r = fixture[name];
  if (!r) throw new Error(`no fixture ${name}`);
  return r;
};

describe('newRSLines (doc example)', () => {
  it('scales the new RS up by min(maxTotal - current, replicas - new)', () => {
    expect(
      newRSLines({ strategy: 'RollingUpdate', replicas: 10, maxSurge: 3, maxTotalPods: 13, currentPods: 10, newRSReplicas: 0, atCapacity: false, scaleUpCount: 3, result: 3 }),
    ).toEqual(['maxTotalPods = replicas 10 + maxSurge 3 = 13', 'Σ spec.replicas of all ReplicaSets 10', 'scale up = min(13 − 10, 10 − 0) = 3', 'new RS = 0 + 3 = 3']);
  });
  it('keeps the size at capacity', () => {
    expect(newRSLines({ strategy: 'RollingUpdate', replicas: 10, maxSurge: 3, maxTotalPods: 13, currentPods: 13, newRSReplicas: 3, atCapacity: true, result: 3 })).toEqual([
      'maxTotalPods = replicas 10 + maxSurge 3 = 13',
      'Σ spec.replicas of all ReplicaSets 13',
      'Σ spec.replicas 13 ≥ maxTotalPods 13 → new RS stays 3',
    ]);
  });
  it('uses replicas for Recreate', () => {
    expect(newRSLines({ strategy: 'Recreate', replicas: 4 })).toEqual(['strategy Recreate: new RS = replicas 4']);
  });
});

describe('fencepostSide (doc example)', () => {
  it('shows percentage rounding', () => {
    expect(fencepostSide('maxSurge', { input: '25%', isPercent: true, percent: 25, raw: '2.5', rounding: 'up', value: 3 }, 10)).toBe('maxSurge = 25% of 10 = 2.5, rounded up → 3');
    expect(fencepostSide('maxUnavailable', { input: '25%', isPercent: true, percent: 25, raw: '2.5', rounding: 'down', value: 2 }, 10)).toBe('maxUnavailable = 25% of 10 = 2.5, rounded down → 2');
  });
  it('shows absolute values and unset', () => {
    expect(fencepostSide('maxSurge', { input: '3', isPercent: false, rounding: 'up', value: 3 }, 10)).toBe('maxSurge = 3 (absolute, no rounding)');
    expect(fencepostSide('maxSurge', { input: 'unset' }, 10)).toBe('maxSurge unset → 0');
  });
});

describe('formatMath on engine records', () => {
  it('NewRSMath of the rollout: 13 / 3', () => {
    const b = formatMath(rec('newRS'))!;
    expect(b.title).toBe('NewRSNewReplicas');
    expect(b.lines).toContain('maxTotalPods = replicas 10 + maxSurge 3 = 13');
    expect(b.lines).toContain('scale up = min(13 − 10, 10 − 0) = 3');
  });
  it('OldScaleDownMath: maxScaledDown 2 and the scaled-down table', () => {
    const b = formatMath(rec('oldScaleDown'))!;
    expect(b.lines).toEqual([
      'minAvailable = replicas 10 − maxUnavailable 2 = 8',
      'new RS unavailable = 3 − 0 available = 3',
      'maxScaledDown = Σ spec.replicas 13 − minAvailable 8 − new RS unavailable 3 = 2',
      'scale down = available 10 − minAvailable 8 = 2',
      'total scaled down 2',
    ]);
    expect(b.tables.map((t) => t.rows)).toEqual([
      [['web-7b786dbddb', '10', '10', '0', '10', 'all available']],
      [['web-7b786dbddb', '10', '10', '−2', '8']],
    ]);
  });
  it('OldScaleDownMath with unhealthy replicas says the clean-up runs before the scale-down (crash-loop-undo, step 223)', () => {
    const data = { oldPods: 5, allPods: 13, replicas: 10, maxUnavailable: 2, minAvailable: 8, newRS: 'web-7b786dbddb', newRSReplicas: 8, newRSAvailable: 8, newRSUnavailable: 0, maxScaledDown: 5, cleanedUnhealthy: [{ name: 'web-86b5b66747', spec: 5, available: 0, removed: 5, newSize: 0 }], cleanupCount: 5, availablePods: 8, scaleDownTarget: 0, scaledDown: null, totalScaledDown: 5 };
    const b = formatMath({ ...rec('oldScaleDown'), data })!;
    expect(b.lines).toEqual([
      'minAvailable = replicas 10 − maxUnavailable 2 = 8',
      'new RS unavailable = 8 − 8 available = 0',
      'maxScaledDown = Σ spec.replicas 13 − minAvailable 8 − new RS unavailable 0 = 5',
      'first, cleanupUnhealthyReplicas removes 5 unavailable pod(s) of old ReplicaSets (table below)',
      'then scale down = available 8 − minAvailable 8 = 0',
      'total scaled down 5',
    ]);
    expect(b.tables[0]!.caption).toBe('cleanupUnhealthyReplicas (removed 5)');
  });
  it('NewRSMath notes that Σ spec.replicas is not the pods that exist', () => {
    expect(formatMath(rec('newRS'))!.notes.join(' ')).toContain('pods still terminating are not in it');
  });
  it('ClaimDecision: the adoption of the bare pod, with why; the claims of a step are one table', () => {
    const adopt = (name: string) => ({ ...rec('oldScaleDown'), type: 'ClaimDecision', data: { owner: 'ReplicaSet default/replicatest', object: `Pod default/${name}`, action: 'adopt', outcome: 'done', why: 'orphan labels env=prod match selector env=prod', rv: '9' } });
    const blocks = mathOf([adopt('test'), adopt('test2')]);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.title).toBe('ClaimPods');
    expect(blocks[0]!.lines).toEqual(['adopt Pod default/test: orphan labels env=prod match selector env=prod → done', 'adopt Pod default/test2: orphan labels env=prod match selector env=prod → done']);
    const many = mathOf(Array.from({ length: 25 }, (_, i) => adopt(`p${i}`)));
    expect(many).toHaveLength(1);
    expect(many[0]!.lines).toHaveLength(11);
    expect(many[0]!.lines[10]).toBe('… and 15 more (the trace lists them all)');
  });
  it('marks context blocks, which presenter mode folds: fenceposts, no scaling event, expectations satisfied', () => {
    expect(formatMath(rec('fenceposts'))!.context).toBe(true);
    expect(formatMath(rec('newRS'))!.context).toBeFalsy();
    const sat = (satisfied: boolean) => formatMath({ ...rec('newRS'), type: 'ExpectationsCheck', data: { key: 'default/a', satisfied, reason: 'r', add: 0, del: 0 } })!.context;
    expect(sat(true)).toBe(true);
    expect(sat(false)).toBe(false);
  });
  it('OldScaleDownMath stopped by maxScaledDown <= 0', () => {
    const b = formatMath(rec('oldBlocked'))!;
    expect(b.lines[2]).toBe('maxScaledDown = Σ spec.replicas 13 − minAvailable 8 − new RS unavailable 5 = 0');
    expect(b.notes).toEqual(['stopped: maxScaledDown <= 0']);
  });
  it('FencepostMath names the rounding rule', () => {
    const b = formatMath(rec('fenceposts'))!;
    expect(b.lines).toEqual(['maxSurge = 3 (absolute, no rounding)', 'maxUnavailable = 2 (absolute, no rounding)', '→ maxSurge 3, maxUnavailable 2']);
    expect(b.notes).toEqual(['maxSurge rounds up, maxUnavailable rounds down']);
  });
  it('ScaleMath proportional: per-RS table with leftover', () => {
    const b = formatMath(rec('proportional'))!;
    expect(b.title).toBe('scale');
    const t = b.tables[0]!;
    expect(t.head).toEqual(['ReplicaSet', 'spec', 'before', 'fraction', 'proportion (min with allowed)', 'new size']);
    const d = (rec('proportional').data as { proportional: { rows: { name: string; newSize: number }[]; toAdd: number } }).proportional;
    expect(t.rows.map((r) => [r[0], r[5]])).toEqual(d.rows.map((r) => [r.name, String(r.newSize)]));
    expect(b.lines).toContain(`toAdd = 18 − 13 = ${signed(d.toAdd)}`);
  });
  it('ExpectationsCheck says whether manageReplicas runs', () => {
    const b = formatMath(rec('expectations'))!;
    expect(b.lines.at(-1)).toBe('→ satisfied: manageReplicas runs');
    expect(formatMath({ ...rec('expectations'), data: { key: 'default/x', satisfied: false, reason: 'pending', add: 2, del: 0, pendingKeys: [] } })!.lines.at(-1)).toBe(
      '→ not satisfied: manageReplicas skipped this sync',
    );
  });
  it('ignores non-math records and keeps record order', () => {
    expect(formatMath({ ...rec('newRS'), type: 'Request' })).toBeNull();
    expect(mathOf([rec('oldScaleDown'), rec('newRS')]).map((b) => b.type)).toEqual(['OldScaleDownMath', 'NewRSMath']);
  });
});

describe('DeletionRanking table', () => {
  // Victims first, in deletion order, then survivors (podutil.DeletionRanking).
  const ranking = (victims: number, survivors: number): TraceRecord => ({
    ...rec('newRS'),
    type: 'DeletionRanking',
    data: {
      owner: 'shop/web-1',
      diff: victims,
      candidates: victims + survivors,
      sorted: true,
      pods: Array.from({ length: victims + survivors }, (_, i) => ({ name: `p${i}`, victim: i < victims, node: 'n1', phase: 'Running', ready: true, restarts: 0, decidedBy: i === victims - 1 ? 'readiness' : 'tie' })),
    },
  });
  const names = (victims: number, survivors: number) => formatMath(ranking(victims, survivors))!.tables[0]!.rows.map((r) => r[0]);
  it('lists every pod of a small ranking', () => {
    const t = formatMath(ranking(RANKING_HEAD + RANKING_TAIL + 1, 3))!.tables[0]!;
    expect(t.rows).toHaveLength(RANKING_HEAD + RANKING_TAIL + 4);
    expect(t.skip).toBeUndefined();
  });
  it('keeps the first victims, the cut and the survivors of a large one, and counts the victims between', () => {
    const t = formatMath(ranking(500, 3))!.tables[0]!;
    expect(names(500, 3)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p498', 'p499', 'p500', 'p501', 'p502']);
    expect(t.skip).toEqual({ at: RANKING_HEAD, text: `… ${500 - RANKING_HEAD - RANKING_TAIL} more victims, in deletion order (the trace lists them all)` });
    // The last victim names the rule that put it ahead of the first survivor; survivors are not marked.
    expect(t.rows[RANKING_HEAD + RANKING_TAIL - 1]!.slice(1)).toEqual(['yes', 'readiness', 'n1', 'Running', 'yes', '0']);
    expect(t.rows.slice(RANKING_HEAD + RANKING_TAIL).map((r) => r[1])).toEqual(['', '', '']);
  });
  it('has no "decided by" column when every candidate was taken unsorted', () => {
    const r = ranking(12, 0);
    const t = formatMath({ ...r, data: { ...(r.data as object), sorted: false } })!.tables[0]!;
    expect(t.head).toEqual(['pod', 'victim', 'node', 'phase', 'ready', 'restarts']);
    expect(t.rows[0]).toEqual(['p0', 'yes', 'n1', 'Running', 'yes', '0']);
  });
  it('does not hide a single victim behind a line', () => {
    expect(names(RANKING_HEAD + RANKING_TAIL + 1, 0)).toHaveLength(RANKING_HEAD + RANKING_TAIL + 1);
    expect(formatMath(ranking(RANKING_HEAD + RANKING_TAIL + 2, 0))!.tables[0]!.skip?.at).toBe(RANKING_HEAD);
  });
});

describe('proportionalTable', () => {
  it('formats the fraction and the capped proportion', () => {
    const t = proportionalTable({
      toAdd: 5,
      order: 'larger first, ties newer first',
      rows: [{ name: 'a', spec: 8, maxSource: 'annotation', maxBefore: 13, newMax: 18, raw: '11.077', fraction: 3, allowed: 5, proportion: 3, newSize: 11 }],
    });
    expect(t.rows).toEqual([['a', '8', '13 (annotation)', 'round(8×18/13 = 11.077) − 8 = +3', 'min(+3, +5) = +3', '11']]);
  });
});
