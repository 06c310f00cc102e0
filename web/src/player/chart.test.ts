import { describe, expect, it } from 'vitest';
import type { Sample } from '../types';
import { buildSeries, linear, PathWriter, putTenths, SeriesCache, type StepLine, stepLine } from './chart';

/** Samples of one ReplicaSet "a" whose spec.replicas takes the given values, one step each (atNs = step s). */
function run(values: number[]): Sample[] {
  return values.map((v, i) => ({ step: i, atNs: i * 1e9, replicaSets: [{ name: 'a', desired: v, current: 0, ready: 0, available: 0 }], deployments: null }));
}

describe('SeriesCache', () => {
  it('appends new samples of the same list to the series it keeps', () => {
    const samples = run([3, 4]);
    const cache = new SeriesCache();
    const first = cache.update(samples);
    const pts = first[0]!.points;
    samples.push(...run([3, 4, 6]).slice(2));
    const s = cache.update(samples);
    expect(s[0]!.points).toBe(pts);
    expect(s[0]!.points).toEqual([
      [0, 3, 0],
      [1e9, 4, 1],
      [2e9, 6, 2],
    ]);
  });

  it('takes in at most a budget of new samples per update, and the rest on the next ones', () => {
    const samples = run([5, 1, 4, 1, 5, 9, 2]);
    const cache = new SeriesCache();
    expect(cache.update(samples, 3)[0]!.points.map((p) => p[2])).toEqual([0, 1, 2]);
    expect(cache.behind(samples)).toBe(true);
    const v = cache.version;
    cache.update(samples, 3);
    expect(cache.version).toBe(v + 1);
    const s = cache.update(samples, 3);
    expect(cache.behind(samples)).toBe(false);
    // The same series as one update without a budget: points and block summaries.
    const whole = new SeriesCache().update(samples);
    expect(s).toEqual(whole);
    // Caught up: another update changes nothing.
    cache.update(samples, 3);
    expect(cache.version).toBe(v + 2);
  });

  it('changes its version only when a series changes', () => {
    const cache = new SeriesCache();
    const samples = run([1, 2]);
    cache.update(samples);
    const v = cache.version;
    // the same list again (a seek) or an equal copy: nothing to redraw
    cache.update(samples);
    cache.update(run([1, 2]));
    expect(cache.version).toBe(v);
    // a new step
    cache.update(run([1, 2, 3]));
    expect(cache.version).toBe(v + 1);
    // cut back
    cache.update(run([1, 2]));
    expect(cache.version).toBe(v + 2);
  });

  it('redoes only what follows the first difference of a cut-back or replaced list', () => {
    const cache = new SeriesCache();
    const samples = run([1, 2, 3, 4]);
    cache.update(samples);
    // an action at step 1 discarded the future; the new step 2 differs
    samples.length = 2;
    samples.push(run([1, 2, 9])[2]!);
    expect(cache.update(samples)[0]!.points.map((p) => p[1])).toEqual([1, 2, 9]);
    // a fetched copy (new objects, equal values) changes nothing; its new tail is appended
    const copy = run([1, 2, 9, 5]);
    expect(cache.update(copy)[0]!.points.map((p) => p[1])).toEqual([1, 2, 9, 5]);
    // a series that no longer has points is dropped
    const other: Sample[] = [{ step: 0, atNs: 0, replicaSets: null, deployments: [{ name: 'web', replicas: 1, updated: 0, available: 1 }] }];
    expect(cache.update(other).map((s) => s.id)).toEqual(['available/web']);
  });

  it('keeps the block minimum and maximum right across appends and cuts', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i === 70 ? 100 : i % 7));
    const samples = run(values);
    const cache = new SeriesCache();
    const s = cache.update(samples)[0]!;
    expect(s.mins).toEqual([0, 0, 0, 0]);
    expect(s.maxs).toEqual([6, 6, 100, 6]);
    samples.length = 66; // the spike at 70 is gone; block 2 now holds points 64 and 65
    cache.update(samples);
    expect(s.mins).toEqual([0, 0, 1]);
    expect(s.maxs).toEqual([6, 6, 2]);
  });
});

/** A line's vertices as [x, value] pairs. */
const vertices = (l: StepLine) => Array.from(l.xs.subarray(0, l.n), (x, i) => [x, l.vs[i]]);

describe('stepLine', () => {
  const series = (values: number[]) => new SeriesCache().update(run(values))[0]!;

  it('draws each pixel column through its extremes, ending on its last value', () => {
    // two steps per pixel column
    const l = stepLine(series([1, 5, 2, 2, 3, 3, 3, 0]), true, 0, 8, 0, 4);
    expect(vertices(l)).toEqual([
      [0, 1],
      [0, 5],
      [1, 2],
      [2, 3],
      [3, 3],
      [3, 0],
    ]);
    expect(l.max).toBe(5);
  });

  it('starts a zoomed range with the value in effect and runs on to the right edge', () => {
    const l = stepLine(series([1, 5, 2, 2, 3, 3, 3, 0]), true, 2, 5, 0, 30);
    expect(vertices(l)).toEqual([
      [0, 5],
      [0, 2],
      [10, 2],
      [20, 3],
      [30, 3],
    ]);
    // The 5 in effect at the range's start is drawn, so the y axis covers it.
    expect(l.max).toBe(5);
  });

  it('keeps a one-point peak among many points of one column (time axis)', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i === 50 ? 100 : i % 7));
    const l = stepLine(series(values), false, 0, 99e9, 0, 0.5);
    expect(vertices(l)).toEqual([
      [0, 0],
      [0, 100],
      [0, 1],
    ]);
    expect(l.max).toBe(100);
  });

  it('puts every point in the column of its own x, however many points a column holds', () => {
    // Columns of 1 to 40 points (the search for the next column gallops):
    // each vertex's x is the column start of a point whose value it shows.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const values = Array.from({ length: 3000 }, () => Math.floor(rnd() * 50));
    const s = series(values);
    for (const scale of [0.013, 0.5, 1, 3.7]) {
      const toPx = linear(0, 2999, 10, 10 + 2999 * scale);
      const l = stepLine(s, true, 0, 2999, 10, 10 + 2999 * scale);
      const byColumn = new Map<number, number[]>();
      values.forEach((v, i) => {
        const col = Math.floor(toPx(i));
        const vs = byColumn.get(col) ?? [];
        vs.push(v);
        byColumn.set(col, vs);
      });
      const lastOf = [...byColumn.values()].map((vs) => vs.at(-1));
      const ends = Array.from(l.vs.subarray(0, l.n)).filter((_, i) => i === l.n - 1 || l.xs[i + 1] !== l.xs[i]);
      expect(ends).toEqual(lastOf);
      expect(l.max).toBe(Math.max(...values));
    }
  });
});

describe('stepLine into a line drawn before', () => {
  it('gives what a fresh line gives, whatever the reused arrays held', () => {
    const a = new SeriesCache().update(run([1, 5, 2, 2, 3, 3, 3, 0]))[0]!;
    const b = new SeriesCache().update(run(Array.from({ length: 400 }, (_, i) => i % 9)))[0]!;
    const reused = stepLine(b, true, 0, 399, 0, 399);
    // 400 columns of up to 3 vertices: the arrays grew past their first 256.
    expect(reused.n).toBeGreaterThan(256);
    const again = stepLine(a, true, 2, 5, 0, 30, reused);
    expect(again).toBe(reused);
    const fresh = stepLine(a, true, 2, 5, 0, 30);
    expect(vertices(again)).toEqual(vertices(fresh));
    expect(again.n).toBe(fresh.n);
    expect(again.max).toBe(fresh.max);
  });
});

describe('PathWriter', () => {
  it('writes M x,y then H x V y with one decimal, as toFixed(1) does', () => {
    const y = (v: number) => 200 - v * 1.7;
    const xs = [46, 46, 47.25, 300.04, 588];
    const vs = [0, 100, 12.5, 7, 3];
    const want = xs.map((x, i) => (i === 0 ? `M${x.toFixed(1)},${y(vs[i]!).toFixed(1)}` : `H${x.toFixed(1)}V${y(vs[i]!).toFixed(1)}`)).join('');
    const line = (xs: number[], vs: number[]): StepLine => ({ xs: Float64Array.from([...xs, 999]), vs: Float64Array.from([...vs, 999]), n: xs.length, max: 0 });
    const w = new PathWriter();
    expect(w.write(line(xs, vs), y)).toBe(want);
    expect(w.write(line([], []), y)).toBe('');
    // The buffer grows for a long line and is reused.
    const long = Array.from({ length: 5000 }, (_, i) => 46 + i * 0.1);
    const got = w.write(line(long, long), (v) => v);
    expect(got.length).toBeGreaterThan(5000 * 8);
    expect(got.startsWith('M46.0,46.0H46.1V46.1')).toBe(true);
  });

  it('formats numbers exactly as toFixed(1) does: ties, negatives, large and non-finite values too', () => {
    const buf = new Uint8Array(64);
    const fmt = (v: number) => new TextDecoder().decode(buf.subarray(0, putTenths(buf, 0, v)));
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 5000; i++) {
      const v = Math.round((rnd() * 2000 - 500) * 1000) / 1000;
      expect(fmt(v)).toBe(v.toFixed(1));
    }
    // The chart's own coordinates: a 40-step run's x, a 200-replica axis's y
    // (doubles just below a tie, where rounding |v| × 10 would round up).
    const x = linear(0, 39, 46, 588);
    const y = linear(0, 200, 192, 10);
    for (let i = 0; i <= 200; i++) {
      expect(fmt(x(i))).toBe(x(i).toFixed(1));
      expect(fmt(y(i))).toBe(y(i).toFixed(1));
    }
    for (const v of [59.549999999999997, 187.44999999999999, 0.05, 1.05, -0.04, -0, 0, 9.96, -3.25, 1234567.89, 1e16, -1e20, NaN, Infinity, -Infinity]) {
      expect(fmt(v)).toBe(v.toFixed(1));
    }
  });
});
