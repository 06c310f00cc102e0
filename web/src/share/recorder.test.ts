import { describe, expect, it } from 'vitest';
import type { EngineClient } from '../engine';
import { ShareRecorder } from './recorder';

/** A fake engine: every call answers a view at the step it is told. */
function fakeEngine(log: unknown[]): { client: EngineClient; at: (n: number) => void } {
  let step = 0;
  return {
    at: (n) => (step = n),
    client: {
      async call<T>(method: string, args?: unknown) {
        log.push([method, args]);
        if (method === 'load') step = 0;
        return { ok: true as const, value: { view: { step, seed: 42 } } as T };
      },
    },
  };
}

describe('ShareRecorder', () => {
  it('records the scenario, seed, actions at their steps and the current step', async () => {
    const log: unknown[] = [];
    const e = fakeEngine(log);
    const r = new ShareRecorder(e.client);
    expect(r.state()).toBeNull();
    await r.client.call('load', { source: 'yaml', name: 'a.yaml', maxPods: 150 });
    e.at(4);
    await r.client.call('advance', { by: 'event' });
    await r.client.call('act', { action: { type: 'scale', target: 'deployment/web', replicas: 3 } });
    e.at(9);
    await r.client.call('seek', { step: 9 });
    await r.client.call('act', { action: { type: 'pause', target: 'deployment/web' } });
    expect(r.state('zh-CN')).toEqual({
      source: 'yaml',
      name: 'a.yaml',
      seed: 42,
      step: 9,
      lang: 'zh-CN',
      actions: [
        { step: 4, action: { type: 'scale', target: 'deployment/web', replicas: 3 } },
        { step: 9, action: { type: 'pause', target: 'deployment/web' } },
      ],
    });
    // Acting after a rewind discards the actions recorded later in the run.
    e.at(6);
    await r.client.call('seek', { step: 6 });
    await r.client.call('act', { action: { type: 'resume', target: 'deployment/web' } });
    expect(r.state()?.actions.map((a) => [a.step, a.action.type])).toEqual([
      [4, 'scale'],
      [6, 'resume'],
    ]);
    // A new load starts over.
    await r.client.call('load', { source: 'other' });
    expect(r.state()).toEqual({ source: 'other', seed: 42, step: 0, actions: [] });
  });

  it('carries the comparison on screen, each run with the number of actions made before it, while they are still the run\'s', async () => {
    const e = fakeEngine([]);
    const r = new ShareRecorder(e.client);
    const surge = { type: 'setRollingUpdate', target: 'deployment/web', maxSurge: '100%' };
    let plan: { atStep: number; runs: { action: typeof surge; keepAt?: boolean }[] } | null = null;
    r.forkPlan = () => plan;
    await r.client.call('load', { source: 'yaml' });
    e.at(3);
    await r.client.call('seek', { step: 3 });
    await r.client.call('act', { action: { type: 'setImage', target: 'deployment/web', image: 'nginx:1.26' } });
    await r.client.call('fork', { atStep: 3, action: surge, label: 'B', keepAt: true });
    plan = { atStep: 3, runs: [{ action: surge, keepAt: true }] };
    expect(r.state()?.forks).toEqual({ atStep: 3, runs: [{ action: surge, keepAt: true, afterActions: 1 }] });
    // An action made later, then C added: C was forked from a run with it, B from one without.
    e.at(8);
    await r.client.call('seek', { step: 8 });
    await r.client.call('act', { action: { type: 'pause', target: 'deployment/web' } });
    await r.client.call('fork', { atStep: 3, action: surge, label: 'C' });
    plan = { atStep: 3, runs: [{ action: surge, keepAt: true }, { action: surge }] };
    expect(r.state()?.forks?.runs.map((x) => x.afterActions)).toEqual([1, 2]);
    // Closed on the page: no comparison.
    plan = null;
    expect(r.state()?.forks).toBeUndefined();
    // An action made after a rewind to before the pause discards the run C was forked from.
    plan = { atStep: 3, runs: [{ action: surge, keepAt: true }, { action: surge }] };
    e.at(5);
    await r.client.call('seek', { step: 5 });
    await r.client.call('act', { action: { type: 'scale', target: 'deployment/web', replicas: 2 } });
    expect(r.state()?.forks).toBeUndefined();
    // A new B starts over from the actions as they are now.
    await r.client.call('fork', { atStep: 3, action: surge, label: 'B' });
    plan = { atStep: 3, runs: [{ action: surge }] };
    expect(r.state()?.forks?.runs.map((x) => x.afterActions)).toEqual([2]);
    // A new load forgets it.
    await r.client.call('load', { source: 'yaml' });
    expect(r.state()?.forks).toBeUndefined();
  });

  it('adds a restored seed to the next load only', async () => {
    const log: unknown[] = [];
    const r = new ShareRecorder(fakeEngine(log).client);
    r.useSeed(7);
    await r.client.call('load', { source: 'y' });
    await r.client.call('load', { source: 'y' });
    expect(log).toEqual([
      ['load', { source: 'y', seed: 7 }],
      ['load', { source: 'y' }],
    ]);
  });

  it('does not record failed calls', async () => {
    const r = new ShareRecorder({ call: async () => ({ ok: false as const, error: { message: 'x', line: 0, field: '', panic: false, errors: [] } }) });
    await r.client.call('load', { source: 'y' });
    expect(r.state()).toBeNull();
  });
});
