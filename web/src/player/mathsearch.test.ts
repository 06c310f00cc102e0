import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../types';
import { latestMath, MATH_SPAN, MATH_WINDOW, MathTrail, type RecordsCall } from './mathsearch';

/** A trace of decision records: [step, type] each, seq from 1 in order. */
function trace(recs: [number, string][]): TraceRecord[] {
  return recs.map(([step, type], i) => ({ seq: i + 1, step, type, source: 'deployment-controller', kind: 'decision', atNs: 0, text: type, data: {} }) as unknown as TraceRecord);
}

/** The engine's records call over t (decisions only), counting the calls. */
function engine(t: TraceRecord[]): { call: RecordsCall; calls: () => number } {
  let calls = 0;
  const call: RecordsCall = async ({ from, to, limit, last }) => {
    calls++;
    const passing = t.filter((r) => r.seq >= from && r.seq <= to);
    const records = passing.length <= limit ? passing : last ? passing.slice(-limit) : passing.slice(0, limit);
    return { records, total: passing.length };
  };
  return { call, calls: () => calls };
}

/** Each step's first and last seq in t. */
const seqsOf = (t: TraceRecord[]) => (step: number) => {
  const mine = t.filter((r) => r.step === step);
  return mine.length ? { firstSeq: mine[0]!.seq, lastSeq: mine[mine.length - 1]!.seq } : undefined;
};

const never = () => false;

describe('latestMath', () => {
  it('reads a long run a slice of sequence numbers at a time, from the newest, and stops at the first math', async () => {
    // Math at step 1, then 3 slices of records that are not decisions (the engine's filter leaves them out).
    const t = trace([[1, 'NewRSMath'], [1, 'FencepostMath']]);
    const e = engine(t);
    const total = 2 + 3 * MATH_SPAN;
    const spans: [number, number][] = [];
    const call: RecordsCall = (args) => (spans.push([args.from, args.to]), e.call(args));
    expect(await latestMath(call, 1, total, 0, seqsOf(t), never)).toEqual({ found: 1, math: t });
    for (const [a, b] of spans) expect(b - a + 1).toBeLessThanOrEqual(MATH_SPAN);
    expect(spans[0]).toEqual([total - MATH_SPAN + 1, total]);
    expect(spans).toHaveLength(4);
    // A step whose records straddle two slices is read whole.
    const long = trace(Array.from({ length: MATH_SPAN + 10 }, (): [number, string] => [4, 'ClaimDecision']));
    const r = await latestMath(engine(long).call, 1, long.length, 0, seqsOf(long), never);
    expect((r as { math: TraceRecord[] }).math).toHaveLength(MATH_SPAN + 10);
  });

  it('finds the latest step with math however many decisions without math follow it', async () => {
    // Step 5 has math; then 3 windows of decisions that are not math (PathDecision).
    const t = trace([[5, 'NewRSMath'], [5, 'FencepostMath'], ...Array.from({ length: 3 * MATH_WINDOW }, (_, i): [number, string] => [6 + i, 'PathDecision'])]);
    const e = engine(t);
    const r = await latestMath(e.call, 1, t.length, 0, seqsOf(t), never);
    expect(r).toEqual({ found: 5, math: t.slice(0, 2) });
    expect(e.calls()).toBe(4); // three windows of PathDecision, then the one holding step 5
  });

  it('reads all of the step found when the last window begins inside it', async () => {
    // Step 9 adopts 100 pods: 100 ClaimDecision records, more than a window.
    const t = trace([[2, 'NewRSMath'], ...Array.from({ length: 100 }, (): [number, string] => [9, 'ClaimDecision']), [10, 'PathDecision']]);
    const e = engine(t);
    const r = await latestMath(e.call, 1, t.length, 0, seqsOf(t), never);
    expect(r).not.toBeTypeOf('string');
    const { found, math } = r as { found: number; math: TraceRecord[] };
    expect(found).toBe(9);
    expect(math).toHaveLength(100);
    // That step not fetched yet: the caller waits for the fetch.
    expect(await latestMath(engine(t).call, 1, t.length, 0, () => undefined, never)).toBe('unfetched');
  });

  it('finds none after the step known, and stops at it', async () => {
    const t = trace([[3, 'NewRSMath'], ...Array.from({ length: 2 * MATH_WINDOW }, (_, i): [number, string] => [4 + i, 'PathDecision'])]);
    const e = engine(t);
    // Step 3 is known already: nothing newer.
    expect(await latestMath(e.call, 1, t.length, 3, seqsOf(t), never)).toEqual({ found: -1, math: [] });
    expect(e.calls()).toBe(3);
    // No decision at all in the range.
    expect(await latestMath(engine([]).call, 1, 50, 0, () => undefined, never)).toEqual({ found: -1, math: [] });
  });

  it('stops when a call fails or the view moved', async () => {
    const t = trace([[1, 'NewRSMath'], ...Array.from({ length: 2 * MATH_WINDOW }, (_, i): [number, string] => [2 + i, 'PathDecision'])]);
    expect(await latestMath(async () => null, 1, t.length, 0, seqsOf(t), never)).toBe('stopped');
    let n = 0;
    const e = engine(t);
    expect(await latestMath(e.call, 1, t.length, 0, seqsOf(t), () => ++n > 1)).toBe('stopped');
    expect(e.calls()).toBe(2);
  });
});

describe('MathTrail', () => {
  // Steps 1-10, a decision record each; math at steps 3 and 7 only.
  const t = trace(Array.from({ length: 10 }, (_, i) => [i + 1, i + 1 === 3 || i + 1 === 7 ? 'ScaleMath' : 'NotMath'] as [number, string]));
  const host = (found: [number, number][]) => ({ call: engine(t).call, seqs: seqsOf(t), moved: never, found: (st: number, math: TraceRecord[]) => found.push([st, math.length]) });

  it('reads back over the steps a jump passed, from the latest math known, and marks them read', async () => {
    const trail = new MathTrail();
    trail.saw(0, false);
    trail.saw(2, false);
    expect(trail.unread(2)).toBe(true); // step 1 was jumped over
    trail.saw(1, false);
    expect(trail.unread(2)).toBe(false);
    // A jump from 2 to 9: 3 to 8 never read.
    trail.saw(9, false);
    expect(trail.unread(9)).toBe(true);
    const found: [number, number][] = [];
    await trail.backfillNow(() => true, () => 9, () => host(found));
    expect(found).toEqual([[7, 1]]);
    expect(trail.latest(9)).toBe(7);
    expect(trail.unread(9)).toBe(false);
    // Back to 5: the steps after 7 were read, those before it were not.
    trail.saw(5, false);
    expect(trail.unread(5)).toBe(true);
    await trail.backfillNow(() => true, () => 5, () => host(found));
    expect(found).toEqual([[7, 1], [3, 1]]);
    expect(trail.unread(5)).toBe(false);
  });

  it('forgets the steps after a cut, and their math', () => {
    const trail = new MathTrail();
    for (let s = 1; s <= 9; s++) trail.saw(s, s === 3 || s === 7);
    expect(trail.cutAbove(5, true)).toEqual([7]);
    expect(trail.latest(9)).toBe(3);
    // The run grows again past the cut: steps 6 to 8 are unread.
    trail.saw(8, false);
    expect(trail.unread(8)).toBe(true);
  });

  it('does not search when not ready, and searches once at a time', async () => {
    const trail = new MathTrail();
    trail.saw(9, false);
    const found: [number, number][] = [];
    await trail.backfillNow(() => false, () => 9, () => host(found));
    expect(found).toEqual([]);
    let hosts = 0;
    const first = trail.backfillNow(() => true, () => 9, () => (hosts++, host(found)));
    await trail.backfillNow(() => true, () => 9, () => (hosts++, host(found)));
    await first;
    expect(hosts).toBe(1);
    expect(found).toEqual([[7, 1]]);
  });
});
