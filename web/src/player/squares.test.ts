import { expect, it } from 'vitest';
import { countedRuns, countedTotal, squareGrid } from './squares';

it('countedRuns draws a ReplicaSet from its status counts: available, ready, not ready, terminating', () => {
  const rs = { namespace: 'default', name: 'web-a', desired: 10, current: 9, ready: 7, available: 5, terminating: 2, images: null };
  expect(countedRuns(rs)).toEqual([
    { state: 'available', n: 5 },
    { state: 'ready', n: 2 },
    { state: 'pending', n: 2 },
    { state: 'terminating', n: 2 },
  ]);
  expect(countedTotal(rs)).toBe(11);
});

it('countedRuns stops at the squares drawn; countedTotal counts them all', () => {
  const rs = { namespace: 'default', name: 'web-a', desired: 10000, current: 9000, ready: 7000, available: 5000, terminating: 2000, images: null };
  expect(countedRuns(rs, 240)).toEqual([{ state: 'available', n: 240 }]);
  expect(countedRuns(rs, 5100)).toEqual([
    { state: 'available', n: 5000 },
    { state: 'ready', n: 100 },
  ]);
  expect(countedTotal(rs)).toBe(11000);
});

it('countedRuns leaves out empty runs and counts that do not add up', () => {
  // A status read between two updates can say more ready than current.
  const rs = { namespace: 'default', name: 'web-a', desired: 3, current: 2, ready: 3, available: 0, images: null };
  expect(countedRuns(rs)).toEqual([{ state: 'ready', n: 3 }]);
  expect(countedRuns({ ...rs, current: 0, ready: 0 })).toEqual([]);
});

it('squareGrid wraps squares as the flex row of .pods does', () => {
  // 16.8 px squares 3 px apart in 200 px: 10 fit (10 * 16.8 + 9 * 3 = 195).
  expect(squareGrid(25, 200, 16.8, 3)).toEqual({ perRow: 10, rows: 3, height: 3 * 16.8 + 2 * 3 });
  expect(squareGrid(10, 200, 16.8, 3)).toEqual({ perRow: 10, rows: 1, height: 16.8 });
  expect(squareGrid(0, 200, 16.8, 3)).toEqual({ perRow: 10, rows: 0, height: 0 });
  // Narrower than one square: still one a row.
  expect(squareGrid(2, 10, 16.8, 3)).toEqual({ perRow: 1, rows: 2, height: 2 * 16.8 + 3 });
});
