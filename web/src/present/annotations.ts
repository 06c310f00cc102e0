// Scenario annotations ("steps worth pausing at"): where each one falls in
// the run. A {step} annotation is where it says; a {record, nth} annotation
// falls at the step of the nth decision record of that type, found by
// scanning the trace as the run is computed.
import type { Annotation } from '../player/player';

/** Steps of the decision records seen so far, by record type, in order. */
export type RecordSteps = Map<string, number[]>;

/**
 * The step of every annotation, or null when its record has not been seen
 * (yet) in the run computed so far.
 *
 *   stepsOf([{at:{step:3}}, {at:{record:'NewRSMath', nth:2}}], new Map([['NewRSMath', [2, 95]]])) → [3, 95]
 */
export function stepsOf(anns: readonly Pick<Annotation, 'at'>[], seen: RecordSteps): (number | null)[] {
  return anns.map((a) => {
    if (a.at.step) return a.at.step;
    if (!a.at.record) return null;
    return seen.get(a.at.record)?.[(a.at.nth ?? 1) - 1] ?? null;
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
 * The index of the annotation to show at step: the last one at or before it
 * (ties: file order), or -1.
 */
export function noteAt(steps: readonly (number | null)[], step: number): number {
  let best = -1;
  let bestStep = -1;
  steps.forEach((s, i) => {
    if (s !== null && s <= step && s >= bestStep) {
      best = i;
      bestStep = s;
    }
  });
  return best;
}
