import { expect, it } from 'vitest';
import { podState } from './diff';
import { countedSquares } from './panels';

it('countedSquares draws a ReplicaSet from its status counts', () => {
  const sq = countedSquares({ namespace: 'default', name: 'web-a', desired: 10, current: 9, ready: 7, available: 5, terminating: 2, images: null });
  expect(sq.map(podState)).toEqual([...Array(5).fill('available'), ...Array(2).fill('ready'), ...Array(2).fill('pending'), ...Array(2).fill('terminating')]);
  expect(new Set(sq.map((p) => p.name)).size).toBe(sq.length);
  expect(sq.every((p) => p.name.startsWith('web-a#'))).toBe(true);
});
