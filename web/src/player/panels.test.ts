import { expect, it } from 'vitest';
import { countedSquares, countedTotal } from './panels';

it('countedSquares builds only the squares drawn; countedTotal counts them all', () => {
  const rs = { namespace: 'default', name: 'web-a', desired: 10000, current: 9000, ready: 7000, available: 5000, terminating: 2000, images: null };
  const sq = countedSquares(rs, 240);
  expect(sq.length).toBe(240);
  expect(sq.every((p) => p.available)).toBe(true);
  expect(countedTotal(rs)).toBe(11000);
  expect(countedSquares(rs).length).toBe(11000);
});
