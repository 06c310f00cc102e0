// The search behind the math panel's "showing step N": the latest step whose
// decision records hold math, at or before the step shown, asked of the
// engine from the newest records back (latestMath), and what a player's
// panel knows of the run's decisions between searches (MathTrail: the app's
// player and the embedded one).
import { whenIdle } from '../idle';
import { MATH_TYPES } from '../math-types';
import { list, type TraceRecord } from '../types';
import { SortedSteps } from './history';

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

/** What a MathTrail search asks of its player. */
export interface TrailHost {
  /** The engine's `records`. */
  call: RecordsCall;
  /** A step's sequence numbers (the app: its history; the embed: the engine's `steps`). */
  seqs: StepSeqs;
  /** True once the step shown or the run is no longer the one the search began at. */
  moved: () => boolean;
  /** The search found the latest step with math, with its math records. */
  found: (step: number, math: TraceRecord[]) => void;
}

/**
 * What a math panel knows of the run's decisions: the steps it has math of
 * and the steps whose records it read (a view shows a step's records; a
 * search reads those it passes). The panel shows the latest step with math
 * at or before the one shown, which is right only once every step after it
 * was read; a seek, a settle, a drag of the slider, a note or a tick of
 * playback that took several steps jumps over steps never read, and
 * backfill searches back over them (latestMath).
 */
export class MathTrail {
  private readonly withMath = new SortedSteps();
  private readonly read = new Set<number>();
  /** True from when a search is asked for (it waits for the page to be idle) until it ends: one at a time. */
  private busy = false;

  /** A step's records were read (a view shows them); hasMath: they hold math. */
  saw(step: number, hasMath: boolean): void {
    this.read.add(step);
    if (hasMath) this.withMath.add(step);
  }

  /** The latest step with math at or before `at`, or -1 when there is none. */
  latest(at: number): number {
    return this.withMath.atOrBefore(at);
  }

  /** Forgets everything (another run was loaded). */
  clear(): void {
    this.withMath.clear();
    this.read.clear();
  }

  /**
   * Forgets the steps after n (an action discarded the future) and returns
   * those that had math. The steps read are walked only when the run got
   * shorter (a cut runs at every step, and that set holds every step read).
   */
  cutAbove(n: number, shorter: boolean): number[] {
    if (shorter) for (const s of this.read) if (s > n) this.read.delete(s);
    return this.withMath.cutAbove(n);
  }

  /** Whether a step after the latest one with math, up to `at`, was never read. */
  unread(at: number): boolean {
    const known = Math.max(this.latest(at), 0);
    let st = at;
    while (st > known && this.read.has(st)) st--;
    return st > known;
  }

  /**
   * Once the page is idle (the frame that shows the step goes first: a seek
   * in a 10,000-replica run is timed to it), searches while ready() and a
   * step before the one shown (at()) is unread; again when the reader moved
   * on during a search. Nothing starts while one is asked for or runs, or
   * when no step is left to read: a render may call it at every step.
   */
  backfill(ready: () => boolean, at: () => number, host: () => TrailHost | null): void {
    if (this.busy || !ready() || !this.unread(at())) return;
    this.busy = true;
    whenIdle(() => void this.run(ready, at, host), 500);
  }

  /** backfill at once, awaited (the embedded player's start step), unless a search is already asked for. */
  async backfillNow(ready: () => boolean, at: () => number, host: () => TrailHost | null): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    await this.run(ready, at, host);
  }

  private async run(ready: () => boolean, at: () => number, host: () => TrailHost | null): Promise<void> {
    try {
      for (;;) {
        const h = ready() && this.unread(at()) ? host() : null;
        if (!h || !(await this.search(at(), h))) return;
      }
    } finally {
      this.busy = false;
    }
  }

  /** One search for step `at`: true when it ended because the host moved, before it was done. */
  private async search(at: number, host: TrailHost): Promise<boolean> {
    const top = await host.seqs(at);
    if (!top || host.moved()) return host.moved();
    const known = Math.max(this.latest(at), 0);
    // The records after the known step's (all of them when its range is not known).
    let from = 1;
    if (known > 0) {
      const k = await host.seqs(known);
      if (host.moved()) return true;
      if (k) from = k.lastSeq + 1;
    }
    const r = await latestMath(host.call, from, top.lastSeq, known, host.seqs, host.moved);
    // Moved: search again for the step shown now. A call that failed, or a
    // step not fetched yet (its fetch renders again): stop.
    if (r === 'stopped') return host.moved();
    if (r === 'unfetched') return false;
    // Every step after the one found (or the one known) up to `at` holds none.
    for (let st = Math.max(r.found, known) + 1; st <= at; st++) this.read.add(st);
    if (r.found >= 0) {
      this.saw(r.found, true);
      host.found(r.found, r.math);
    }
    return false;
  }
}
