// Lookups over step-ordered lists that a render makes every frame. A
// 10,000-replica run has over 100,000 steps, so anything a frame does must
// cost O(log steps) or O(new steps), never O(steps): a linear scan of the
// history on every frame was a few milliseconds while playing and over ten
// after a seek (measured in Chromium, scripts/bench-browser.mjs).

import type { StepInfo } from '../types';

/**
 * The index of the first entry whose step is ≥ step in a list ordered by
 * step (its length when there is none): a binary search. The list may have
 * holes (undefined entries: steps not fetched yet); they are skipped, so
 * the index is always of an entry or the length.
 *
 *   firstAtOrAfter([{step: 1}, {step: 4}, {step: 9}], 5) → 2
 *   firstAtOrAfter([{step: 1}, {step: 2}, hole, {step: 4}, {step: 5}], 5) → 4
 */
export function firstAtOrAfter(list: readonly (Pick<StepInfo, 'step'> | undefined)[], step: number): number {
  // Invariant: every entry before lo has a step < step, every entry at or
  // after hi a step ≥ step (holes have no step: they satisfy both).
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    // The first entry at or after mid (holes skipped; each hole scanned
    // here leaves [lo, hi), so the scans cost O(holes) in all).
    let j = mid;
    while (j < hi && list[j] === undefined) j++;
    if (j < hi && list[j]!.step < step) lo = j + 1;
    else hi = mid;
  }
  while (lo < list.length && list[lo] === undefined) lo++;
  return lo;
}

/**
 * The entries of a window of a list around index at, holes skipped: up to
 * `before` entries before it, then entries from at on until there are
 * `size` in all. A window of a list without holes is
 * list.slice(max(0, at − before), max(0, at − before) + size).
 */
export function windowAround<T>(list: readonly (T | undefined)[], at: number, before: number, size: number): T[] {
  let from = Math.min(at, list.length);
  for (let n = 0; from > 0 && n < before; ) if (list[--from] !== undefined) n++;
  const out: T[] = [];
  for (let i = from; i < list.length && out.length < size; i++) {
    const e = list[i];
    if (e !== undefined) out.push(e);
  }
  return out;
}

/**
 * The components named by a step history, kept up to date as the history
 * grows: update() reads only the entries added since the last call, and
 * starts over when given another history array (a new scenario was loaded)
 * or after cut() (an action discarded the future).
 */
export class HistoryComponents {
  /** The history array the set was built from. */
  private of: readonly (StepInfo | undefined)[] | null = null;
  /** Entries of `of` read so far: history[0 .. read-1]. */
  private read = 0;
  /** Components of history[0 .. read-1]. */
  private readonly names = new Set<string>();
  /** names, sorted; null when names changed since it was built. */
  private sorted: string[] | null = [];

  /** The sorted components of history. */
  update(history: readonly (StepInfo | undefined)[]): readonly string[] {
    if (history !== this.of || history.length < this.read) {
      this.of = history;
      this.read = 0;
      this.names.clear();
      this.sorted = null;
    }
    for (; this.read < history.length; this.read++) {
      const c = history[this.read]?.component;
      if (c !== undefined && !this.names.has(c)) {
        this.names.add(c);
        this.sorted = null;
      }
    }
    this.sorted ??= [...this.names].sort();
    return this.sorted;
  }

  /**
   * Notes that the history was cut back to its first n entries (an action
   * discarded the future). Call it when cutting, whatever comes next: the
   * run may grow back past the old length before the next update(), which
   * could then not tell that the entries it read are gone. Names cannot be
   * taken out one by one (another entry may name the same component), so
   * the next update() reads the history again.
   */
  cut(n: number): void {
    if (n >= this.read) return;
    this.read = 0;
    this.names.clear();
    this.sorted = null;
  }

  /** Notes an entry written at an index already read (a step recomputed after a seek). */
  note(st: StepInfo): void {
    if (st.step - 1 < this.read && !this.names.has(st.component)) {
      this.names.add(st.component);
      this.sorted = null;
    }
  }
}

/**
 * A set of steps kept sorted, for "the latest step at or before n that had
 * X" (the math panel shows the last controller decision).
 */
export class SortedSteps {
  private readonly steps: number[] = [];

  add(step: number): void {
    let lo = 0;
    let hi = this.steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.steps[mid]! < step) lo = mid + 1;
      else hi = mid;
    }
    if (this.steps[lo] !== step) this.steps.splice(lo, 0, step);
  }

  clear(): void {
    this.steps.length = 0;
  }

  /** Removes the steps above n and returns them (an action discarded the future). */
  cutAbove(n: number): number[] {
    let lo = this.steps.length;
    while (lo > 0 && this.steps[lo - 1]! > n) lo--;
    return this.steps.splice(lo);
  }

  /** The largest step ≤ n, or -1 when there is none. */
  atOrBefore(n: number): number {
    let lo = 0;
    let hi = this.steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.steps[mid]! <= n) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? this.steps[lo - 1]! : -1;
  }
}
