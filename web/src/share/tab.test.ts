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
