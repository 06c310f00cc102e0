import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { sampleOf } from './app';
import type { Sample, View } from './types';

// A view and the engine's own chart sample after step 95 of rolling-update-10-3-2 (seed 1).
const { view, sample } = JSON.parse(readFileSync(new URL('./testdata/step95.json', import.meta.url), 'utf8')) as { view: View; sample: Sample };

it('sampleOf reads the same numbers the engine samples', () => {
  expect(sampleOf(view)).toEqual(sample);
});
