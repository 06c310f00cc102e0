import { describe, expect, it } from 'vitest';
import { createClient } from './engine';

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
