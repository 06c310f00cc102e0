// The replicas-over-time chart: pure scaling and series building (tested),
// and a hand-rolled SVG renderer that reuses its elements between renders.

import type { Sample } from '../types';
import { list } from '../types';

/** A linear map from a domain to a range. */
export interface Scale {
  (v: number): number;
  /** The inverse: a range value back to the domain. */
  invert(px: number): number;
}

/**
 * Maps [d0, d1] linearly onto [r0, r1]; a zero-width domain maps to r0.
 *
 *   linear(0, 10, 0, 100)(2.5) → 25;  linear(0, 10, 100, 0)(10) → 0
 */
export function linear(d0: number, d1: number, r0: number, r1: number): Scale {
  const span = d1 - d0;
  const f = ((v: number) => (span === 0 ? r0 : r0 + ((v - d0) / span) * (r1 - r0))) as Scale;
  f.invert = (px: number) => (r1 === r0 ? d0 : d0 + ((px - r0) / (r1 - r0)) * span);
  return f;
}

/**
 * A round upper bound for an axis: the smallest of 1, 2, 5 × 10^k that is
 * ≥ max (at least 1).
 *
 *   niceMax(13) → 20;  niceMax(10) → 10;  niceMax(0) → 1;  niceMax(1001) → 2000
 */
export function niceMax(max: number): number {
  if (!(max > 1)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

/** One line of the chart. */
export interface Series {
  /** "rs/web-abc" or "available/web". */
  id: string;
  label: string;
  /** [virtual time ns, value, step] per sample where the object exists. */
  points: [number, number, number][];
}

/**
 * Builds one series per ReplicaSet (its spec.replicas) and one per
 * Deployment (its available pods) from the samples, in first-seen order.
 */
export function buildSeries(samples: readonly Sample[]): Series[] {
  const byId = new Map<string, Series>();
  const get = (id: string, label: string): Series => {
    let s = byId.get(id);
    if (!s) {
      s = { id, label, points: [] };
      byId.set(id, s);
    }
    return s;
  };
  for (const smp of samples) {
    for (const rs of list(smp.replicaSets)) get(`rs/${rs.name}`, rs.name).points.push([smp.atNs, rs.desired, smp.step]);
    for (const d of list(smp.deployments)) get(`available/${d.name}`, `${d.name} available`).points.push([smp.atNs, d.available, smp.step]);
  }
  return [...byId.values()];
}

/**
 * The sample step nearest to virtual time t (ties: the later step, so a
 * click lands after the instant's events).
 *
 *   nearestStep([{step:0, atNs:0}, {step:1, atNs:0}, {step:2, atNs:5}], 1) → 1
 */
export function nearestStep(samples: readonly Pick<Sample, 'step' | 'atNs'>[], t: number): number {
  let best = 0;
  let bestD = Infinity;
  for (const s of samples) {
    const d = Math.abs(s.atNs - t);
    if (d <= bestD) {
      bestD = d;
      best = s.step;
    }
  }
  return best;
}

/**
 * Thins points so a long run draws at most `max` of them, always keeping the
 * first, the last and every point whose value differs from the previous one.
 */
export function thin(points: [number, number, number][], max: number): [number, number, number][] {
  if (points.length <= max) return points;
  const out: [number, number, number][] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const prev = points[i - 1];
    const next = points[i + 1];
    if (!prev || !next || prev[1] !== p[1] || next[1] !== p[1]) out.push(p);
  }
  return out;
}

/**
 * About `count` round tick values covering [lo, hi] (steps of 1, 2 or 5 × 10^k).
 *
 *   ticks(0, 13, 5) → [0, 5, 10];  ticks(0, 300, 5) → [0, 100, 200, 300]
 */
export function ticks(lo: number, hi: number, count: number): number[] {
  if (!(hi > lo) || count < 1) return [lo];
  const raw = (hi - lo) / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/** The line style of series i: a colour class and a dash pattern, so no two of the first 12 look alike. */
export function lineStyle(i: number, available: boolean): { color: string; dash: string } {
  if (available) return { color: 'avail', dash: '2 3' };
  const dashes = ['', '7 4', '2 3', '10 3 2 3'];
  // (i mod 6, i mod 4) differs for every i below 12.
  return { color: `c${i % 6}`, dash: dashes[i % 4]! };
}
