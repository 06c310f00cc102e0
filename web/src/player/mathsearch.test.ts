import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../types';
import { latestMath, MATH_SPAN, MATH_WINDOW, type RecordsCall } from './mathsearch';

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
