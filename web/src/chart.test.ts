import { describe, expect, it } from 'vitest';
import { buildSeries, linear, nearestStep, niceMax, thin } from './chart';
import type { Sample } from './types';

describe('linear (doc examples)', () => {
  it('maps and inverts', () => {
    expect(linear(0, 10, 0, 100)(2.5)).toBe(25);
    expect(linear(0, 10, 100, 0)(10)).toBe(0);
    expect(linear(0, 10, 100, 0).invert(75)).toBe(2.5);
  });
  it('maps a zero-width domain to the range start', () => {
    expect(linear(5, 5, 10, 90)(5)).toBe(10);
  });
});

describe('niceMax (doc examples)', () => {
  it.each([
    [13, 20],
    [10, 10],
    [0, 1],
    [1001, 2000],
    [3, 5],
    [51, 100],
  ])('%d → %d', (x, want) => expect(niceMax(x)).toBe(want));
});

const samples: Sample[] = [
  { step: 0, atNs: 0, replicaSets: null, deployments: [{ name: 'web', replicas: 10, updated: 0, available: 0 }] },
  { step: 1, atNs: 0, replicaSets: [{ name: 'web-a', owner: 'web', desired: 10, current: 0, ready: 0, available: 0 }], deployments: [{ name: 'web', replicas: 10, updated: 0, available: 0 }] },
  {
    step: 2,
    atNs: 5e9,
    replicaSets: [
      { name: 'web-a', owner: 'web', desired: 8, current: 10, ready: 10, available: 10 },
      { name: 'web-b', owner: 'web', desired: 3, current: 3, ready: 0, available: 0 },
    ],
    deployments: [{ name: 'web', replicas: 10, updated: 3, available: 10 }],
  },
];

describe('buildSeries', () => {
  it('makes one line per RS (spec.replicas) and one per Deployment (available), first seen first', () => {
    const s = buildSeries(samples);
    expect(s.map((x) => x.id)).toEqual(['available/web', 'rs/web-a', 'rs/web-b']);
    expect(s[1]!.points).toEqual([
      [0, 10, 1],
      [5e9, 8, 2],
    ]);
    expect(s[0]!.points.map((p) => p[1])).toEqual([0, 0, 10]);
  });
});

describe('nearestStep (doc example)', () => {
  it('prefers the later step on ties', () => {
    expect(nearestStep([{ step: 0, atNs: 0 }, { step: 1, atNs: 0 }, { step: 2, atNs: 5 }], 1)).toBe(1);
    expect(nearestStep(samples, 4e9)).toBe(2);
    expect(nearestStep([], 4)).toBe(0);
  });
});

describe('thin', () => {
  it('keeps ends and changes, drops flat middles', () => {
    const pts: [number, number, number][] = [0, 1, 2, 3, 4, 5].map((i) => [i, i < 3 ? 1 : 2, i]);
    expect(thin(pts, 3).map((p) => p[2])).toEqual([0, 2, 3, 5]);
    expect(thin(pts, 10)).toBe(pts);
  });
});
