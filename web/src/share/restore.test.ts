import { expect, it } from 'vitest';
import type { EngineClient } from '../engine';
import type { ShareState } from './codec';
import { ShareRecorder } from './recorder';
import { applyShareState, type ShareableApp } from './restore';

// Each run of a shared comparison is forked again at the point of the
// replay where it was made: B after the first action, C after the second
// (the image, then a pause made before C was added), the first replacing
// what is shown and the next joining it; then the app goes to the shared step.
it('forks each shared run again after the actions made before it', async () => {
  let step = 0;
  const engine: EngineClient = {
    async call<T>(method: string, args?: unknown) {
      if (method === 'load') step = 0;
      if (method === 'seek') step = (args as { step: number }).step;
      return { ok: true as const, value: { view: { step, seed: 1 } } as T };
    },
  };
  const recorder = new ShareRecorder(engine);
  const log: string[] = [];
  const app: ShareableApp = {
    load: async (source) => (log.push(`load ${source}`), (await recorder.client.call('load', { source })).ok),
    seek: async (n) => void (log.push(`seek ${n}`), await recorder.client.call('seek', { step: n })),
    act: async (a) => void (log.push(`act ${a.type}`), await recorder.client.call('act', { action: a })),
    current: () => ({ step }),
    banner: (text, kind) => void log.push(`banner ${kind}: ${text}`),
    showLoaded: () => {},
    restoreFork: async (atStep, run, add) => (log.push(`fork at ${atStep} ${String(run.action.maxSurge)}${add ? ' (add)' : ''}`), true),
  };
  const surge = (maxSurge: string) => ({ type: 'setRollingUpdate', target: 'deployment/web', maxSurge });
  const state: ShareState = {
    source: 'yaml',
    actions: [
      { step: 3, action: { type: 'setImage', target: 'deployment/web', image: 'nginx:1.26' } },
      { step: 8, action: { type: 'pause', target: 'deployment/web' } },
    ],
    step: 10,
    forks: { atStep: 3, runs: [{ action: surge('100%'), keepAt: true, afterActions: 1 }, { action: surge('50%'), afterActions: 2 }] },
  };
  await expect(applyShareState(app, recorder, state, null, (n) => `at ${n}`)).resolves.toBe(true);
  expect(log).toEqual(['load yaml', 'seek 3', 'act setImage', 'fork at 3 100%', 'seek 8', 'act pause', 'fork at 3 50% (add)', 'seek 10', 'banner info: at 10']);
});
