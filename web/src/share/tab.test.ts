import { expect, it } from 'vitest';
import { readTab, saveTab, TAB_STATE } from './tab';

const store = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
};

it('keeps the run across a reload, and nothing for the default scenario untouched', () => {
  const s = store();
  const st = { source: 'kind: Deployment', name: 'mine.yaml', seed: 3, actions: [{ step: 13, action: { type: 'setImage' as const, target: 'deployment/web', image: 'x:2' } }], step: 59 };
  saveTab(s, st, 'default');
  expect(readTab(s)).toEqual({ ...st, from: '' });
  saveTab(s, st, 'default', '#v1.abc');
  expect(readTab(s)?.from).toBe('#v1.abc');
  saveTab(s, { source: 'default', actions: [], step: 0 }, 'default');
  expect(s.m.has(TAB_STATE)).toBe(false);
  saveTab(s, { source: 'default', actions: [], step: 4 }, 'default'); // stepped: kept
  expect(readTab(s)?.step).toBe(4);
});

it('reads nothing from junk', () => {
  const s = store();
  for (const raw of ['{', '{"source":1}', '{"source":"x","actions":[{"step":"a"}],"step":0}', '{"source":"x","actions":[],"step":-1}']) {
    s.setItem(TAB_STATE, raw);
    expect(readTab(s)).toBeNull();
  }
});

it('keeps a comparison on the default scenario at step 0, and drops one it cannot read but not the run', () => {
  const s = store();
  const forks = { atStep: 0, runs: [{ action: { type: 'setRollingUpdate', target: 'deployment/web', maxSurge: '100%' }, afterActions: 0 }] };
  saveTab(s, { source: 'default', actions: [], step: 0, forks }, 'default');
  expect(readTab(s)?.forks).toEqual(forks);
  s.setItem(TAB_STATE, JSON.stringify({ source: 'x', actions: [], step: 2, forks: { atStep: 0, runs: [{ action: { type: 'scale' }, afterActions: 5 }] } }));
  expect(readTab(s)).toEqual({ source: 'x', actions: [], step: 2 });
});
