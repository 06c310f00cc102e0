import { describe, expect, it } from 'vitest';
import { createClient, deferredClient, sameArgs } from './engine';

describe('createClient', () => {
  it('encodes arguments as JSON and parses the result', async () => {
    const calls: [string, string][] = [];
    const client = createClient((method, argsJSON) => {
      calls.push([method, argsJSON]);
      return '{"ok":true,"value":{"engine":"0.1.0","upstream":"v1.36.3"}}';
    });
    await expect(client.call('version', { verbose: true })).resolves.toEqual({
      ok: true,
      value: { engine: '0.1.0', upstream: 'v1.36.3' },
    });
    expect(calls).toEqual([['version', '{"verbose":true}']]);
  });

  it('sends null when there are no arguments', async () => {
    let sent = '';
    const client = createClient((_m, argsJSON) => ((sent = argsJSON), '{"ok":true,"value":null}'));
    await client.call('version');
    expect(sent).toBe('null');
  });

  it('turns a throwing bridge into a failure', async () => {
    const client = createClient(() => {
      throw new Error('Go program has already exited');
    });
    const r = await client.call('version');
    expect(r).toEqual({
      ok: false,
      error: { message: 'engine call "version" failed: Go program has already exited', line: 0, field: '', panic: false, errors: [] },
    });
  });

  it('reports arguments that cannot be encoded', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const client = createClient(() => '{"ok":true,"value":null}');
    const r = await client.call('x', cyclic);
    expect(r.ok === false && r.error.message).toMatch(/^cannot encode arguments for "x"/);
  });
});

describe('deferredClient', () => {
  const answer = '{"ok":true,"value":{"view":{"step":0}}}';
  it('answers the prerendered call at once and still sends it to the engine first', async () => {
    const sent: string[] = [];
    let start!: (e: import('./engine').EngineClient) => void;
    const ready = new Promise<import('./engine').EngineClient>((r) => (start = r));
    let live = false;
    const client = deferredClient(ready, { method: 'load', args: { source: 'x', maxPods: 150 }, result: answer }, () => (live = true));
    await expect(client.call('load', { source: 'x', maxPods: 150 })).resolves.toEqual({ ok: true, value: { view: { step: 0 } } });
    const later = client.call('advance', { by: 'event' });
    start(createClient((m, a) => (sent.push(`${m} ${a}`), '{"ok":true,"value":1}')));
    await expect(later).resolves.toEqual({ ok: true, value: 1 });
    expect(sent).toEqual(['load {"source":"x","maxPods":150}', 'advance {"by":"event"}']);
    expect(live).toBe(true);
  });
  it('sends a call with other arguments to the engine', async () => {
    const sent: string[] = [];
    const client = deferredClient(Promise.resolve(createClient((m, a) => (sent.push(`${m} ${a}`), '{"ok":true,"value":2}'))), { method: 'load', args: { source: 'x' }, result: answer });
    await expect(client.call('load', { source: 'y' })).resolves.toEqual({ ok: true, value: 2 });
    await expect(client.call('load', { source: 'x', seed: 3 })).resolves.toEqual({ ok: true, value: 2 });
    expect(sent).toHaveLength(2);
  });
  it('fails every call when the engine cannot start', async () => {
    const client = deferredClient(Promise.reject(new Error('no wasm')));
    const r = await client.call('version');
    expect(r.ok === false && r.error.message).toBe('engine call "version" failed: no wasm');
  });
});

describe('sameArgs', () => {
  it('compares own fields exactly', () => {
    expect(sameArgs({ a: 1, b: 'x' }, { b: 'x', a: 1 })).toBe(true);
    expect(sameArgs({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameArgs(null, {})).toBe(false);
    expect(sameArgs([1], { 0: 1 })).toBe(false);
  });
});
