import { expect, it } from 'vitest';
import { dwellMs } from './notes';

it('dwellMs: playback stays on a note about as long as it takes to read, within 3 to 12 s', () => {
  expect(dwellMs(0)).toBe(3_000);
  expect(dwellMs(100)).toBe(5_500); // a title and a sentence
  expect(dwellMs(237)).toBe(10_980); // rolling-update-10-3-2's second note
  expect(dwellMs(600)).toBe(12_000); // the deletion ranking's long note
});
