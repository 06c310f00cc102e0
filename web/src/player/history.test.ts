import { describe, expect, it } from 'vitest';
import type { StepInfo } from '../types';
import { firstAtOrAfter, HistoryComponents, SortedSteps, windowAround } from './history';

const step = (n: number, component = 'c'): StepInfo => ({ step: n, component }) as StepInfo;

describe('firstAtOrAfter', () => {
  it('finds the first entry at or after a step, as a linear scan would', () => {
    const list = [1, 4, 4, 9].map((n) => step(n));
    for (let n = 0; n <= 10; n++) {
      const scan = list.findIndex((s) => s.step >= n);
      expect(firstAtOrAfter(list, n)).toBe(scan < 0 ? list.length : scan);
    }
    expect(firstAtOrAfter([], 3)).toBe(0);
  });

  it('skips holes (steps not fetched yet), as a linear scan over the entries would', () => {
    const h: (StepInfo | undefined)[] = [step(1), step(2), undefined, step(4), step(5)];
    expect(firstAtOrAfter(h, 5)).toBe(4);
    // every pattern of holes in a list of 7 steps
    for (let mask = 0; mask < 1 << 7; mask++) {
      const list = Array.from({ length: 7 }, (_, i) => (mask & (1 << i) ? undefined : step(2 * i + 1)));
      for (let n = 0; n <= 15; n++) {
        const scan = list.findIndex((s) => s !== undefined && s.step >= n);
        expect(firstAtOrAfter(list, n), `mask ${mask}, step ${n}`).toBe(scan < 0 ? list.length : scan);
      }
    }
    // a sparse array (history[n] = … past its end)
    const sparse: StepInfo[] = [];
    sparse[9] = step(10);
    expect(firstAtOrAfter(sparse, 3)).toBe(9);
    expect(firstAtOrAfter(sparse, 11)).toBe(10);
  });
});

describe('windowAround', () => {
  it('is a slice around an index when there are no holes', () => {
    const list = Array.from({ length: 20 }, (_, i) => i);
    for (const at of [0, 3, 10, 19, 20]) {
      const from = Math.max(0, at - 4);
      expect(windowAround(list, at, 4, 8)).toEqual(list.slice(from, from + 8));
    }
  });
  it('skips holes and still fills the window', () => {
    const list: (number | undefined)[] = [0, 1, undefined, 3, undefined, undefined, 6, 7, 8, undefined, 10];
    expect(windowAround(list, 6, 2, 4)).toEqual([1, 3, 6, 7]);
    expect(windowAround(list, 11, 2, 4)).toEqual([8, 10]);
    const sparse: number[] = [];
    sparse[50] = 50;
    expect(windowAround(sparse, 0, 40, 80)).toEqual([50]);
    expect(windowAround(sparse, 51, 40, 80)).toEqual([50]);
  });
});

describe('HistoryComponents', () => {
  it('reads only new entries and starts over on a cut-back or another history', () => {
    const c = new HistoryComponents();
    const h = [step(1, 'rs'), step(2, 'dep')];
    expect(c.update(h)).toEqual(['dep', 'rs']);
    h.push(step(3, 'kubelet'));
    expect(c.update(h)).toEqual(['dep', 'kubelet', 'rs']);
    // an entry rewritten in place (the same step recomputed) is noted
    h[0] = step(1, 'scheduler');
    c.note(h[0]);
    expect(c.update(h)).toContain('scheduler');
    // cut back: the set is rebuilt from what is left
    h.length = 1;
    expect(c.update(h)).toEqual(['scheduler']);
    // another array (a new scenario)
    expect(c.update([step(1, 'x')])).toEqual(['x']);
  });

  it('forgets the names of a cut future even when the history grows back past its old length', () => {
    const c = new HistoryComponents();
    const h = [step(1, 'rs'), step(2, 'dep'), step(3, 'old-future')];
    expect(c.update(h)).toEqual(['dep', 'old-future', 'rs']);
    const before = c.update(h);
    // an action at step 1 discards steps 2 and 3; the run grows to 4 before the next update
    c.cut(1);
    h.length = 1;
    h.push(step(2, 'dep'), step(3, 'kubelet'), step(4, 'kubelet'));
    const after = c.update(h);
    expect(after).toEqual(['dep', 'kubelet', 'rs']);
    // a new array: the filter's options (compared by identity) are rebuilt
    expect(after).not.toBe(before);
    // nothing changed: the same array
    expect(c.update(h)).toBe(after);
    // a cut past what was read changes nothing
    c.cut(10);
    expect(c.update(h)).toBe(after);
  });

  it('skips holes', () => {
    const h: (StepInfo | undefined)[] = [];
    h[2] = step(3, 'rs');
    expect(new HistoryComponents().update(h)).toEqual(['rs']);
  });
});

describe('SortedSteps', () => {
  it('finds the largest step at or before n', () => {
    const s = new SortedSteps();
    for (const n of [10, 3, 7, 3]) s.add(n);
    expect([0, 3, 5, 7, 9, 10, 99].map((n) => s.atOrBefore(n))).toEqual([-1, 3, 3, 7, 7, 10, 10]);
    s.clear();
    expect(s.atOrBefore(5)).toBe(-1);
  });

  it('forgets the steps of a discarded future (single-step to 30, seek to 10, act: the math panel must not show step 25 at step 25 of the new run)', () => {
    const s = new SortedSteps();
    for (const n of [3, 10, 12, 25, 30]) s.add(n);
    expect(s.cutAbove(10)).toEqual([12, 25, 30]);
    expect(s.atOrBefore(25)).toBe(10);
    expect(s.cutAbove(10)).toEqual([]);
    expect(s.cutAbove(0)).toEqual([3, 10]);
    expect(s.atOrBefore(99)).toBe(-1);
  });
});
