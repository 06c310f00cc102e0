import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, deferredClient, sameArgs, startEngine, type FromWorker, type ToWorker } from './engine';

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

describe('startEngine: "samples" as deltas', () => {
  /** A stand-in for engine-worker.ts: answers each "samples" call with the next scripted message. */
  class FakeWorker {
    static last: FakeWorker;
    onmessage: ((e: MessageEvent<FromWorker>) => void) | null = null;
    onerror: ((e: ErrorEvent) => void) | null = null;
    /** The arguments of each call, in order. */
    readonly args: string[] = [];
    /** The answers still to give, in order. */
    readonly script: Omit<Extract<FromWorker, { type: 'array' }>, 'id'>[] = [];
    constructor() {
      FakeWorker.last = this;
    }
    postMessage(m: ToWorker): void {
      const reply = (d: FromWorker): void => void setTimeout(() => this.onmessage?.({ data: d } as MessageEvent<FromWorker>), 0);
      if (m.type === 'start') return reply({ type: 'ready' });
      this.args.push(m.args);
      const next = this.script.shift();
      if (!next) throw new Error(`unscripted call ${m.method} ${m.args}`);
      reply({ ...next, id: m.id });
    }
    terminate(): void {}
  }
  afterEach(() => vi.unstubAllGlobals());
  const delta = (keep: number, ...tail: unknown[][]) => ({ type: 'array' as const, delta: true, keep, tail: tail.map((t) => JSON.stringify(t)) });

  it('tells the bridge how many samples the page holds, and holds none after a malformed answer', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const client = await startEngine(Promise.resolve({} as WebAssembly.Module));
    const w = FakeWorker.last;
    w.script.push(delta(0, [0, 1, 2]));
    await expect(client.call('samples')).resolves.toEqual({ ok: true, value: [0, 1, 2] });
    w.script.push({ type: 'array', delta: true, keep: 3, tail: ['[3, oops'] });
    const bad = await client.call('samples');
    expect(bad.ok).toBe(false);
    // The bridge counted those 4 as sent; the page holds none and says so.
    w.script.push(delta(0, [0, 1, 2, 3]));
    await expect(client.call('samples')).resolves.toEqual({ ok: true, value: [0, 1, 2, 3] });
    expect(w.args).toEqual(['{"have":0}', '{"have":3}', '{"have":0}']);
  });

  it('rejects an answer that keeps more than the page holds and asks again', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const client = await startEngine(Promise.resolve({} as WebAssembly.Module));
    const w = FakeWorker.last;
    w.script.push(delta(0, [0, 1]));
    await client.call('samples');
    // Two calls in flight: the first answer fails to parse, so the second's
    // keep (computed by a bridge that counted the first as received) is too large.
    w.script.push({ type: 'array', delta: true, keep: 2, tail: ['not json'] }, delta(3, [3]), delta(0, [0, 1, 2, 3]));
    const [first, second] = await Promise.all([client.call('samples'), client.call('samples')]);
    expect(first.ok).toBe(false);
    expect(second).toEqual({ ok: true, value: [0, 1, 2, 3] });
    expect(w.args.at(-1)).toBe('{"have":0}');
  });
});

describe('startEngine: an answer split from its steps', () => {
  afterEach(() => vi.unstubAllGlobals());
  const bytes = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));

  it('puts the steps back into the value, from byte chunks parsed one per task', async () => {
    vi.stubGlobal('Worker', FakeWorkerForSplit);
    const client = await startEngine(Promise.resolve({} as WebAssembly.Module));
    const w = FakeWorkerForSplit.last;
    w.script.push({ type: 'split', head: '{"ok":true,"value":{"view":{"step":3}}}', field: 'steps', tail: [bytes([{ step: 1 }, { step: 2 }]), '[{"step":3}]'] });
    await expect(client.call('advance', { by: 'settle' })).resolves.toEqual({ ok: true, value: { view: { step: 3 }, steps: [{ step: 1 }, { step: 2 }, { step: 3 }] } });
    // A malformed chunk fails the call; the head's own failure comes through as it is.
    w.script.push({ type: 'split', head: '{"ok":true,"value":{}}', field: 'steps', tail: [new TextEncoder().encode('[{"step"')] });
    const bad = await client.call('advance', { by: 'settle' });
    expect(bad.ok === false && bad.error.message).toMatch(/^malformed engine result/);
    w.script.push({ type: 'split', head: '{"ok":false,"error":{"message":"limit reached"}}', field: 'steps', tail: [] });
    const failed = await client.call('advance', { by: 'settle' });
    expect(failed.ok === false && failed.error.message).toBe('limit reached');
  });

  it('settles the answers after a split one in order (a seek answered after a settle is applied after it)', async () => {
    vi.stubGlobal('Worker', FakeWorkerForSplit);
    const client = await startEngine(Promise.resolve({} as WebAssembly.Module));
    const w = FakeWorkerForSplit.last;
    const chunk = bytes(Array.from({ length: 10 }, (_, i) => ({ step: i })));
    w.script.push({ type: 'split', head: '{"ok":true,"value":{"view":{"step":30}}}', field: 'steps', tail: [chunk, chunk, chunk] });
    w.script.push({ type: 'result', result: '{"ok":true,"value":{"view":{"step":29}}}' });
    const order: number[] = [];
    const settle = client.call<{ view: { step: number } }>('advance', { by: 'settle' }).then((r) => r.ok && order.push(r.value.view.step));
    const seek = client.call<{ view: { step: number } }>('seek', { step: 29 }).then((r) => r.ok && order.push(r.value.view.step));
    await Promise.all([settle, seek]);
    expect(order).toEqual([30, 29]);
  });
});

/** A stand-in for engine-worker.ts answering each call with the next scripted message. */
class FakeWorkerForSplit {
  static last: FakeWorkerForSplit;
  onmessage: ((e: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  readonly script: (Omit<Extract<FromWorker, { type: 'split' }>, 'id'> | Omit<Extract<FromWorker, { type: 'result' }>, 'id'>)[] = [];
  constructor() {
    FakeWorkerForSplit.last = this;
  }
  postMessage(m: ToWorker): void {
    const reply = (d: FromWorker): void => void setTimeout(() => this.onmessage?.({ data: d } as MessageEvent<FromWorker>), 0);
    if (m.type === 'start') return reply({ type: 'ready' });
    const next = this.script.shift();
    if (!next) throw new Error(`unscripted call ${m.method}`);
    reply({ ...next, id: m.id } as FromWorker);
  }
  terminate(): void {}
}
