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
  return new SeriesCache().update(samples).map(({ id, label, points }) => ({ id, label, points }));
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

/** Points per summary block of a cached series (its min and max are kept per block). */
export const BLOCK = 32;

/** A series kept by SeriesCache: its points plus the min and max value of every BLOCK points. */
export interface CachedSeries extends Series {
  /** mins[b] / maxs[b]: the smallest / largest value of points[b*BLOCK .. b*BLOCK+BLOCK-1]. */
  mins: number[];
  maxs: number[];
}

/** True when two samples give the chart the same points (the fields the series read). */
function sameSample(a: Sample, b: Sample): boolean {
  if (a.step !== b.step || a.atNs !== b.atNs) return false;
  const ra = list(a.replicaSets);
  const rb = list(b.replicaSets);
  const da = list(a.deployments);
  const db = list(b.deployments);
  if (ra.length !== rb.length || da.length !== db.length) return false;
  for (let i = 0; i < ra.length; i++) if (ra[i]!.name !== rb[i]!.name || ra[i]!.namespace !== rb[i]!.namespace || ra[i]!.desired !== rb[i]!.desired) return false;
  for (let i = 0; i < da.length; i++) if (da[i]!.name !== db[i]!.name || da[i]!.namespace !== db[i]!.namespace || da[i]!.available !== db[i]!.available) return false;
  return true;
}

/**
 * The chart's series, kept between renders: update() appends only the
 * samples it has not seen (a played step costs O(1)); a sample list that
 * was cut back (an action discarded the future) or replaced by a fetched
 * copy is compared with what was seen and only the part after the first
 * difference is redone. Samples belong to the run, so a seek changes nothing.
 */
export class SeriesCache {
  /** The samples the series were built from, in order (references, compared on update). */
  private seen: Sample[] = [];
  private readonly byId = new Map<string, CachedSeries>();
  /** The series in first-seen order. */
  private order: CachedSeries[] = [];
  /** Changes whenever an update changes a series (a renderer redraws the lines only then). */
  version = 0;

  update(samples: readonly Sample[]): CachedSeries[] {
    const keep = this.commonPrefix(samples);
    if (keep < this.seen.length || keep < samples.length) this.version++;
    if (keep < this.seen.length) this.truncate(keep);
    for (let i = keep; i < samples.length; i++) this.add(samples[i]!);
    return this.order;
  }

  /** How many leading samples are the ones already built (same object, or equal where the series look). */
  private commonPrefix(samples: readonly Sample[]): number {
    const n = this.seen.length;
    if (n === 0) return 0;
    if (samples.length >= n && samples[n - 1] === this.seen[n - 1]) return n;
    const m = Math.min(n, samples.length);
    let i = 0;
    for (; i < m; i++) {
      if (samples[i] !== this.seen[i] && !sameSample(samples[i]!, this.seen[i]!)) break;
      this.seen[i] = samples[i]!;
    }
    return i;
  }

  private truncate(keep: number): void {
    const lastStep = keep > 0 ? this.seen[keep - 1]!.step : -Infinity;
    this.seen.length = keep;
    for (const s of this.order) {
      while (s.points.length && s.points[s.points.length - 1]![2] > lastStep) s.points.pop();
      const blocks = Math.ceil(s.points.length / BLOCK);
      s.mins.length = blocks;
      s.maxs.length = blocks;
      if (blocks > 0) {
        let lo = Infinity;
        let hi = -Infinity;
        for (let i = (blocks - 1) * BLOCK; i < s.points.length; i++) (lo = Math.min(lo, s.points[i]![1])), (hi = Math.max(hi, s.points[i]![1]));
        s.mins[blocks - 1] = lo;
        s.maxs[blocks - 1] = hi;
      }
    }
    this.order = this.order.filter((s) => s.points.length > 0 || (this.byId.delete(s.id), false));
  }

  private push(id: string, label: string, p: [number, number, number]): void {
    let s = this.byId.get(id);
    if (!s) {
      s = { id, label, points: [], mins: [], maxs: [] };
      this.byId.set(id, s);
      this.order.push(s);
    }
    const i = s.points.push(p) - 1;
    const b = Math.floor(i / BLOCK);
    if (i % BLOCK === 0) (s.mins[b] = p[1]), (s.maxs[b] = p[1]);
    else (s.mins[b] = Math.min(s.mins[b]!, p[1])), (s.maxs[b] = Math.max(s.maxs[b]!, p[1]));
  }

  private add(smp: Sample): void {
    this.seen.push(smp);
    // A series per namespace and name (two namespaces' "web" are two
    // lines); the label names the namespace when it is not "default".
    for (const rs of list(smp.replicaSets)) {
      const name = rs.namespace ? `${rs.namespace}/${rs.name}` : rs.name;
      this.push(`rs/${name}`, name, [smp.atNs, rs.desired, smp.step]);
    }
    for (const d of list(smp.deployments)) {
      const name = d.namespace ? `${d.namespace}/${d.name}` : d.name;
      this.push(`available/${name}`, `${name} available`, [smp.atNs, d.available, smp.step]);
    }
  }
}

/** The smallest and largest value of points[a..b] (inclusive), whole blocks read from the summaries. */
function rangeMinMax(s: CachedSeries, a: number, b: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  let i = a;
  for (; i <= b && i % BLOCK !== 0; i++) (lo = Math.min(lo, s.points[i]![1])), (hi = Math.max(hi, s.points[i]![1]));
  for (; i + BLOCK - 1 <= b; i += BLOCK) (lo = Math.min(lo, s.mins[i / BLOCK]!)), (hi = Math.max(hi, s.maxs[i / BLOCK]!));
  for (; i <= b; i++) (lo = Math.min(lo, s.points[i]![1])), (hi = Math.max(hi, s.points[i]![1]));
  return [lo, hi];
}

/** First index in [from, to) whose point's position (p[k]) makes pred false; positions are nondecreasing. */
function firstNot(points: [number, number, number][], k: number, from: number, to: number, pred: (v: number) => boolean): number {
  let a = from;
  let b = to;
  while (a < b) {
    const m = (a + b) >> 1;
    if (pred(points[m]![k]!)) a = m + 1;
    else b = m;
  }
  return a;
}

/**
 * First index in [from, to) whose point's position is at or right of pixel
 * x (toPx(p[k]) >= x); positions are nondecreasing. It gallops from `from`
 * before bisecting: the next pixel column starts a few points on, so this
 * costs the log of the column's points, not of the run's.
 */
function firstAtPx(points: [number, number, number][], k: number, from: number, to: number, toPx: (v: number) => number, x: number): number {
  // Every index below a is left of x; b is the next probe.
  let a = from;
  let b = from;
  for (let stride = 1; b < to && toPx(points[b]![k]!) < x; stride *= 2) {
    a = b + 1;
    b = Math.min(to, b + stride);
  }
  while (a < b) {
    const m = (a + b) >> 1;
    if (toPx(points[m]![k]!) < x) a = m + 1;
    else b = m;
  }
  return a;
}

/** A step line drawn through pixel columns: where it starts, then its vertices. */
export interface StepLine {
  /** [x px, value] vertices: the line goes M v[0], then for each next vertex H x V value. */
  vertices: [number, number][];
  /** The largest value of the points inside the range (the y axis covers it). */
  max: number;
}

/**
 * Downsamples a series to at most a few vertices per pixel column of the
 * range [lo, hi] (axis: 'step' or 'time'), so drawing costs the chart's
 * width, not the run's length: per column its smallest, largest and last
 * value (peaks stay visible), at the x of the column's first point. A point
 * before the range starts the line at the left edge with the value then in
 * effect; a point after it extends the line to the right edge. toPx maps an
 * axis position to x; x0/x1 are the plot's edges.
 *
 *   points at steps 0..3 with values 1, 5, 2, 2 in one column → [[x, 1], [x, 5], [x, 2]]
 */
export function stepLine(s: CachedSeries, byStep: boolean, lo: number, hi: number, toPx: (v: number) => number, x0: number, x1: number): StepLine {
  const k = byStep ? 2 : 0;
  const pts = s.points;
  const i0 = firstNot(pts, k, 0, pts.length, (v) => v < lo);
  const end = firstNot(pts, k, i0, pts.length, (v) => v <= hi);
  const out: [number, number][] = [];
  const put = (x: number, v: number) => {
    const last = out[out.length - 1];
    if (!last || last[0] !== x || last[1] !== v) out.push([x, v]);
  };
  if (i0 > 0) out.push([x0, pts[i0 - 1]![1]]);
  let max = -Infinity;
  for (let i = i0; i < end; ) {
    const x = toPx(pts[i]![k]!);
    const col = Math.floor(x);
    const j = firstAtPx(pts, k, i + 1, end, toPx, col + 1);
    const [mn, mx] = rangeMinMax(s, i, j - 1);
    const lastV = pts[j - 1]![1];
    max = Math.max(max, mx);
    if (out.length === 0) out.push([x, pts[i]![1]]);
    // Through the column's extremes, ending on its last value.
    const prev = out[out.length - 1]![1];
    const [a, b] = Math.abs(prev - mn) <= Math.abs(prev - mx) ? [mn, mx] : [mx, mn];
    if (a !== lastV) put(x, a);
    if (b !== lastV) put(x, b);
    put(x, lastV);
    i = j;
  }
  if (end < pts.length && out.length > 0) put(x1, out[out.length - 1]![1]);
  return { vertices: out, max };
}
