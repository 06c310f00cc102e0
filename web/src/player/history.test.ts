import { describe, expect, it } from 'vitest';
import type { StepInfo } from '../types';
import { firstAtOrAfter, HistoryComponents, SortedSteps } from './history';

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
});
