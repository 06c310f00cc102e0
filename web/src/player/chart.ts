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

  update(samples: readonly Sample[], budget = Infinity): CachedSeries[] {
    const keep = this.commonPrefix(samples);
    if (keep < this.seen.length || keep < samples.length) this.version++;
    if (keep < this.seen.length) this.truncate(keep);
    const end = Math.min(samples.length, keep + budget);
    for (let i = keep; i < end; i++) this.add(samples[i]!);
    return this.order;
  }

  /** Whether the last update left samples to add (its budget ran out): the series end before the run does. */
  behind(samples: readonly Sample[]): boolean {
    return this.seen.length < samples.length;
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

/**
 * What rangeMinMax found last, [smallest, largest]: scratch in a typed
 * array, so a column costs no allocation (a double kept in a variable
 * outside the function would be a new heap number each time).
 */
const range = new Float64Array(2);

/** Sets range to the smallest and largest value of points[a..b] (inclusive), whole blocks read from the summaries. */
function rangeMinMax(s: CachedSeries, a: number, b: number): void {
  let lo = Infinity;
  let hi = -Infinity;
  let i = a;
  for (; i <= b && i % BLOCK !== 0; i++) (lo = Math.min(lo, s.points[i]![1])), (hi = Math.max(hi, s.points[i]![1]));
  for (; i + BLOCK - 1 <= b; i += BLOCK) (lo = Math.min(lo, s.mins[i / BLOCK]!)), (hi = Math.max(hi, s.maxs[i / BLOCK]!));
  for (; i <= b; i++) (lo = Math.min(lo, s.points[i]![1])), (hi = Math.max(hi, s.points[i]![1]));
  range[0] = lo;
  range[1] = hi;
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
 * The scale stepLine draws with, [d0, span, r0, r1]: linear(d0, d0 + span,
 * r0, r1), its arithmetic repeated in scaledPx so the search below costs no
 * function call per point (a closure's double argument and result were a
 * heap number each, most of a frame's garbage).
 */
const scaleArgs = new Float64Array(4);

/** The pixel x of axis position v under scaleArgs: linear()'s expression, so the same double. */
function scaledPx(v: number): number {
  const span = scaleArgs[1]!;
  const r0 = scaleArgs[2]!;
  return span === 0 ? r0 : r0 + ((v - scaleArgs[0]!) / span) * (scaleArgs[3]! - r0);
}

/**
 * First index in [from, to) whose point's position is at or right of pixel
 * x (scaledPx(p[k]) >= x); positions are nondecreasing. It gallops from
 * `from` before bisecting: the next pixel column starts a few points on, so
 * this costs the log of the column's points, not of the run's.
 */
function firstAtPx(points: [number, number, number][], k: number, from: number, to: number, x: number): number {
  // Every index below a is left of x; b is the next probe.
  let a = from;
  let b = from;
  for (let stride = 1; b < to && scaledPx(points[b]![k]!) < x; stride *= 2) {
    a = b + 1;
    b = Math.min(to, b + stride);
  }
  while (a < b) {
    const m = (a + b) >> 1;
    if (scaledPx(points[m]![k]!) < x) a = m + 1;
    else b = m;
  }
  return a;
}

/**
 * A step line drawn through pixel columns, as two parallel arrays (a frame
 * redraws the lines, and an array per vertex was most of the page's garbage
 * per step: 200 KB at 1,000 replicas).
 */
export interface StepLine {
  /** The vertices' x px and values, in [0, n): the line goes M (xs[0], vs[0]), then for each next vertex H xs[i] V vs[i]. */
  xs: Float64Array;
  vs: Float64Array;
  /** How many vertices the line has (the arrays are longer: they are reused). */
  n: number;
  /** The largest value drawn: the points inside the range and the value in effect at its start (the y axis covers it). */
  max: number;
}

/** An empty StepLine, to pass to stepLine for reuse. */
export function newStepLine(): StepLine {
  return { xs: new Float64Array(256), vs: new Float64Array(256), n: 0, max: -Infinity };
}

/** Appends a vertex to l, growing its arrays when full. */
function pushVertex(l: StepLine, x: number, v: number): void {
  if (l.n === l.xs.length) {
    const xs = new Float64Array(Math.max(16, l.n * 2));
    const vs = new Float64Array(Math.max(16, l.n * 2));
    xs.set(l.xs);
    vs.set(l.vs);
    l.xs = xs;
    l.vs = vs;
  }
  l.xs[l.n] = x;
  l.vs[l.n] = v;
  l.n++;
}

/**
 * Downsamples a series to at most a few vertices per pixel column of the
 * range [lo, hi] (axis: 'step' or 'time'), so drawing costs the chart's
 * width, not the run's length: per column its smallest, largest and last
 * value (peaks stay visible), at the x of the column's first point. A point
 * before the range starts the line at the left edge with the value then in
 * effect; a point after it extends the line to the right edge. The x axis
 * maps [lo, hi] linearly onto the plot's edges [x0, x1] (linear(lo, hi, x0,
 * x1), the chart's scale). The result is written into `into` (its arrays
 * reused) and returned.
 *
 *   points at steps 0..3 with values 1, 5, 2, 2 in one column → xs [x, x, x], vs [1, 5, 2]
 */
export function stepLine(s: CachedSeries, byStep: boolean, lo: number, hi: number, x0: number, x1: number, into: StepLine = newStepLine()): StepLine {
  const k = byStep ? 2 : 0;
  scaleArgs[0] = lo;
  scaleArgs[1] = hi - lo;
  scaleArgs[2] = x0;
  scaleArgs[3] = x1;
  const pts = s.points;
  const i0 = firstNot(pts, k, 0, pts.length, (v) => v < lo);
  const end = firstNot(pts, k, i0, pts.length, (v) => v <= hi);
  const l = into;
  l.n = 0;
  const put = (x: number, v: number) => {
    if (l.n === 0 || l.xs[l.n - 1] !== x || l.vs[l.n - 1] !== v) pushVertex(l, x, v);
  };
  let max = -Infinity;
  if (i0 > 0) {
    // The value in effect where the range starts is drawn too: the y axis covers it.
    pushVertex(l, x0, pts[i0 - 1]![1]);
    max = pts[i0 - 1]![1];
  }
  for (let i = i0; i < end; ) {
    const x = scaledPx(pts[i]![k]!);
    const col = Math.floor(x);
    const j = firstAtPx(pts, k, i + 1, end, col + 1);
    rangeMinMax(s, i, j - 1);
    const mn = range[0]!;
    const mx = range[1]!;
    const lastV = pts[j - 1]![1];
    max = Math.max(max, mx);
    if (l.n === 0) pushVertex(l, x, pts[i]![1]);
    // Through the column's extremes, ending on its last value.
    const prev = l.vs[l.n - 1]!;
    const minFirst = Math.abs(prev - mn) <= Math.abs(prev - mx);
    const a = minFirst ? mn : mx;
    const b = minFirst ? mx : mn;
    if (a !== lastV) put(x, a);
    if (b !== lastV) put(x, b);
    put(x, lastV);
    i = j;
  }
  if (end < pts.length && l.n > 0) put(x1, l.vs[l.n - 1]!);
  l.max = max;
  return l;
}

/** ASCII codes the path writer uses. */
const CH_0 = 48;
const CH_DOT = 46;
const CH_MINUS = 45;
const CH_COMMA = 44;
const CH_H = 72;
const CH_M = 77;
const CH_V = 86;

/**
 * Writes SVG path data for a step line: "Mx,y" for the first vertex, then
 * "HxVy" for each next one, every number with one decimal (as toFixed(1),
 * rounding half away from zero on the tenths). y maps a value to its pixel
 * row. It writes bytes into a buffer and decodes them once: the strings a
 * toFixed and concatenation per number made were the other half of the
 * page's garbage per step. The buffer is kept between calls.
 */
export class PathWriter {
  private buf = new Uint8Array(4096);
  private readonly decoder = new TextDecoder();

  write(l: StepLine, y: (v: number) => number): string {
    const { xs, vs, n } = l;
    // A vertex takes at most 2 letters and 2 numbers of 30 bytes (toFixed's text of a value under 1e21 has
    // at most a sign, 21 digits, a point and a tenth).
    const need = n * 64 + 8;
    if (this.buf.length < need) this.buf = new Uint8Array(Math.max(need, this.buf.length * 2));
    const buf = this.buf;
    let at = 0;
    for (let i = 0; i < n; i++) {
      if (i === 0) {
        buf[at++] = CH_M;
        at = putTenths(buf, at, xs[i]!);
        buf[at++] = CH_COMMA;
      } else {
        buf[at++] = CH_H;
        at = putTenths(buf, at, xs[i]!);
        buf[at++] = CH_V;
      }
      at = putTenths(buf, at, y(vs[i]!));
    }
    return this.decoder.decode(buf.subarray(0, at));
  }
}

/**
 * Writes v with one decimal at buf[at], exactly as v.toFixed(1) does, and
 * returns the index after it. Rounding |v| × 10 agrees with toFixed except
 * where the product lands on a tie (x.5): toFixed rounds the double's exact
 * value, which may lie just below the tie (59.549999999999997 → "59.5").
 * There, and for "-0.0", values too large to count in tenths and those that
 * are not finite, it writes toFixed's own text (rare: a string then).
 */
export function putTenths(buf: Uint8Array, at: number, v: number): number {
  const scaled = Math.abs(v) * 10;
  const tenths = Math.round(scaled);
  if (!(scaled < 1e15) || scaled - Math.floor(scaled) === 0.5 || (v < 0 && tenths === 0)) {
    const text = v.toFixed(1);
    for (let i = 0; i < text.length; i++) buf[at++] = text.charCodeAt(i);
    return at;
  }
  if (v < 0) buf[at++] = CH_MINUS;
  let whole = Math.floor(tenths / 10);
  const digitsFrom = at;
  do {
    buf[at++] = CH_0 + (whole % 10);
    whole = Math.floor(whole / 10);
  } while (whole > 0);
  for (let a = digitsFrom, b = at - 1; a < b; a++, b--) {
    const c = buf[a]!;
    buf[a] = buf[b]!;
    buf[b] = c;
  }
  buf[at++] = CH_DOT;
  buf[at++] = CH_0 + (tenths % 10);
  return at;
}
