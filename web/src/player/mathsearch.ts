// The search behind the math panel's "showing step N": the latest step whose
// decision records hold math, at or before the step shown, asked of the
// engine from the newest records back (player.ts, backfillMath).
import { MATH_TYPES } from '../math-types';
import { list, type TraceRecord } from '../types';

/** The decision records asked for at a time, the newest first: an answer about the size of a view's records. */
export const MATH_WINDOW = 64;

/** The engine's `records` call (docs/bridge-api.md), null when it failed. */
export type RecordsCall = (args: { from: number; to: number; kinds: string[]; limit: number; last?: boolean }) => Promise<{ records: TraceRecord[] | null; total: number } | null>;

/** What latestMath found. */
export type MathSearch =
  /** The latest step after `known` with math (-1: none up to `to`), and its math records. */
  | { found: number; math: TraceRecord[] }
  /** A call failed, or the caller's view moved on (stale()) while it ran. */
  | 'stopped'
  /** The step found is not in the history yet, and its records began before the last answer. */
  | 'unfetched';

/**
 * The most sequence numbers one call reads: the engine counts the records
 * of the range it is given, so a range of a 100,000-step run's 300,000
 * records cost tens of ms in the Worker, after every seek; the search reads
 * back a slice at a time from the newest, and most end in the first.
 */
export const MATH_SPAN = 4096;

/** A step's first and last sequence numbers, undefined when not known (the app: its step history; the embedded player: the engine's "steps"). */
export type StepSeqs = (step: number) => { firstSeq: number; lastSeq: number } | undefined | Promise<{ firstSeq: number; lastSeq: number } | undefined>;

/**
 * Finds the latest step after `known` whose decision records, among the
 * sequence numbers [from, to], hold math (MATH_TYPES): it asks for the last
 * MATH_WINDOW decision records of the newest MATH_SPAN sequence numbers,
 * then of those before them, and so on, and reads all of the step found
 * when the answer may have begun inside it (seqs gives a step's sequence numbers).
 */
export async function latestMath(call: RecordsCall, from: number, to: number, known: number, seqs: StepSeqs, stale: () => boolean): Promise<MathSearch> {
  while (to >= from) {
    const lo = Math.max(from, to - MATH_SPAN + 1);
    const r = await call({ from: lo, to, kinds: ['decision'], limit: MATH_WINDOW, last: true });
    if (!r || stale()) return 'stopped';
    const recs = list(r.records);
    let found = -1;
    for (const rec of recs) if (rec.step > known && MATH_TYPES.includes(rec.type)) found = Math.max(found, rec.step);
    if (found >= 0) {
      // Records of the step may come before the answer's first (in this slice, or the one before it).
      const whole = recs[0]!.step === found && (r.total > recs.length || lo > from);
      if (!whole) return { found, math: recs.filter((rec) => rec.step === found && MATH_TYPES.includes(rec.type)) };
      const step = await seqs(found);
      if (stale()) return 'stopped';
      if (!step) return 'unfetched';
      const all = await call({ from: step.firstSeq, to: step.lastSeq, kinds: ['decision'], limit: 10000 });
      if (!all || stale()) return 'stopped';
      return { found, math: list(all.records).filter((rec) => rec.step === found && MATH_TYPES.includes(rec.type)) };
    }
    if (recs.length > 0 && recs[0]!.step <= known) break;
    // The rest of this slice, when the answer did not hold all of it; else the slice before.
    to = r.total > recs.length ? recs[0]!.seq - 1 : lo - 1;
  }
  return { found: -1, math: [] };
}
