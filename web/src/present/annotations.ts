// Scenario annotations ("steps worth pausing at"): where each one falls in
// the run. A {step} annotation is where it says; a {record, nth} annotation
// falls at the step of the nth decision record of that type, found by
// scanning the trace as the run is computed.
import type { Annotation } from '../player/player';

/** Steps of the decision records seen so far, by record type, in order. */
export type RecordSteps = Map<string, number[]>;

/**
 * The step of every annotation, or null when its record has not been seen
 * (yet) in the run computed so far; with the run's last step known (end),
 * also null for a {step} note past it, which is not in the run.
 *
 *   stepsOf([{at:{step:3}}, {at:{record:'NewRSMath', nth:2}}], new Map([['NewRSMath', [2, 95]]])) → [3, 95]
 *   stepsOf([{at:{step:3}}, {at:{step:500}}], new Map(), 39) → [3, null]
 */
export function stepsOf(anns: readonly Pick<Annotation, 'at'>[], seen: RecordSteps, end: number | null = null): (number | null)[] {
  return anns.map((a) => {
    const s = a.at.step ? a.at.step : a.at.record ? (seen.get(a.at.record)?.[(a.at.nth ?? 1) - 1] ?? null) : null;
    return s !== null && end !== null && s > end ? null : s;
  });
}

/** Adds records (type and step) to seen. */
export function addRecords(seen: RecordSteps, records: readonly { type: string; step: number }[]): void {
  for (const r of records) {
    let l = seen.get(r.type);
    if (!l) seen.set(r.type, (l = []));
    l.push(r.step);
  }
}

/**
 * The index of the annotation to show at step: of the notes at the latest
 * step at or before it, the first (in file order) when that is this step,
 * else the last, or -1. Several notes at one step are shown one after
 * another (sameStepNote); once past them, the last one read stays.
 *
 *   noteAt([10, 10, 40], 10) → 0;  noteAt([10, 10, 40], 12) → 1
 */
export function noteAt(steps: readonly (number | null)[], step: number): number {
  let bestStep = -1;
  for (const s of steps) if (s !== null && s <= step && s > bestStep) bestStep = s;
  return bestStep < 0 ? -1 : edgeNoteAt(steps, bestStep, bestStep === step ? 1 : -1);
}

/**
 * The note after (dir 1) or before (−1) the one shown, shown, among those
 * at the same step, or -1: two notes of one step (the adoption scenario's
 * ClaimPods and manageReplicas) are two presses of PageDown.
 *
 *   sameStepNote([10, 10, 40], 0, 1) → 1;  sameStepNote([10, 10, 40], 1, 1) → -1
 */
export function sameStepNote(steps: readonly (number | null)[], shown: number, dir: 1 | -1): number {
  const at = steps[shown];
  if (shown < 0 || at === null || at === undefined) return -1;
  for (let i = shown + dir; i >= 0 && i < steps.length; i += dir) if (steps[i] === at) return i;
  return -1;
}

/** The first (dir 1) or last (−1) note at step, in file order, or -1. */
export function edgeNoteAt(steps: readonly (number | null)[], step: number, dir: 1 | -1): number {
  const all = steps.flatMap((s, i) => (s === step ? [i] : []));
  return (dir > 0 ? all[0] : all.at(-1)) ?? -1;
}

/** A note a move chose among several at its step; it is the one shown while that step is. */
export interface PinnedNote {
  step: number;
  index: number;
}

/**
 * The note shown at step: the pinned one while its step is shown, else
 * noteAt's.
 *
 *   shownNote([10, 10, 40], 10, {step: 10, index: 1}) → 1;  shownNote([10, 10, 40], 12, {step: 10, index: 0}) → 1
 */
export function shownNote(steps: readonly (number | null)[], step: number, pinned: PinnedNote | null): number {
  return pinned && pinned.step === step && steps[pinned.index] === step ? pinned.index : noteAt(steps, step);
}

/**
 * The step of the nearest note after (dir 1) or before (−1) step, or null.
 *
 *   nearestNoteStep([10, null, 40], 10, 1) → 40;  nearestNoteStep([10, null, 40], 40, -1) → 10
 */
export function nearestNoteStep(steps: readonly (number | null)[], step: number, dir: 1 | -1): number | null {
  const cands = steps.filter((s): s is number => s !== null && (dir > 0 ? s > step : s < step));
  return cands.length ? (dir > 0 ? Math.min(...cands) : Math.max(...cands)) : null;
}
