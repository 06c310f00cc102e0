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
 * Finds the latest step after `known` whose decision records, among the
 * sequence numbers [from, to], hold math (MATH_TYPES): it asks for the last
 * MATH_WINDOW decision records of the range, then the MATH_WINDOW before
 * them, and so on, and reads all of the step found when the answer began
 * inside it (seqs gives a step's records, undefined when not fetched).
 */
export async function latestMath(call: RecordsCall, from: number, to: number, known: number, seqs: (step: number) => { firstSeq: number; lastSeq: number } | undefined, stale: () => boolean): Promise<MathSearch> {
  while (to >= from) {
    const r = await call({ from, to, kinds: ['decision'], limit: MATH_WINDOW, last: true });
    if (!r || stale()) return 'stopped';
    const recs = list(r.records);
    let found = -1;
    for (const rec of recs) if (rec.step > known && MATH_TYPES.includes(rec.type)) found = Math.max(found, rec.step);
    if (found >= 0) {
      if (recs[0]!.step !== found || r.total <= recs.length) return { found, math: recs.filter((rec) => rec.step === found && MATH_TYPES.includes(rec.type)) };
      // The answer began inside that step: read all of it.
      const step = seqs(found);
      if (!step) return 'unfetched';
      const whole = await call({ from: step.firstSeq, to: step.lastSeq, kinds: ['decision'], limit: 10000 });
      if (!whole || stale()) return 'stopped';
      return { found, math: list(whole.records).filter((rec) => rec.step === found && MATH_TYPES.includes(rec.type)) };
    }
    if (recs.length === 0 || r.total <= recs.length || recs[0]!.step <= known) break;
    to = recs[0]!.seq - 1;
  }
  return { found: -1, math: [] };
}
