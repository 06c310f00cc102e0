// The engine runs in a dedicated Web Worker (engine-worker.ts), so a long
// step or seek never blocks the page. This file is the page's side:
//
//   - compileEngine downloads and compiles rolloutlab.wasm once per page
//     (WebAssembly.compileStreaming; the browser caches the compiled code of
//     a cacheable response) and shares the WebAssembly.Module with every
//     engine instance: several embedded players mean one download and one
//     compile.
//   - startEngine gives a Module to a new Worker and resolves with an
//     EngineClient once the Go program has installed its bridge there.
//   - deferredClient answers calls before the engine is ready: a call waits
//     for the engine, except the one load whose answer was prerendered at
//     build time (the default scenario's step 0), which is answered at once.
//
// EngineClient.call(method, args) is the same async API whether the engine is
// in a Worker or (in tests) a synchronous function.

import { expectedBytes, type Progress } from './progress';
import { failure, parseResult, type Result } from './result';

/** A synchronous bridge function: `globalThis.rolloutlab.call`. */
export type BridgeCall = (method: string, argsJSON: string) => string;

/** The typed, asynchronous face of the engine. */
export interface EngineClient {
  /** Calls a bridge method; never rejects: failures are `{ ok: false }`. */
  call<T = unknown>(method: string, args?: unknown): Promise<Result<T>>;
  /** Stops the engine (its Worker); later calls fail. Absent when there is nothing to stop. */
  close?(): void;
}

/** What the "version" method returns. */
export interface VersionInfo {
  /** Rollout Lab engine release, e.g. "0.1.0". */
  engine: string;
  /** Kubernetes release the controllers reproduce, e.g. "v1.36.3". */
  upstream: string;
}

/** Encodes arguments the way the bridge expects them ("null" for none). */
function encodeArgs(method: string, args: unknown): { json: string } | { error: Result<never> } {
  try {
    return { json: args === undefined ? 'null' : JSON.stringify(args) };
  } catch (e) {
    return { error: failure(`cannot encode arguments for "${method}": ${(e as Error).message}`) };
  }
}

/**
 * Wraps a synchronous bridge function into an EngineClient. Arguments are
 * JSON-encoded here; exceptions thrown by the bridge (e.g. the Go program has
 * exited) become failed Results.
 */
export function createClient(bridge: BridgeCall): EngineClient {
  return {
    async call<T>(method: string, args?: unknown): Promise<Result<T>> {
      const enc = encodeArgs(method, args);
      if ('error' in enc) return enc.error;
      try {
        return parseResult<T>(bridge(method, enc.json));
      } catch (e) {
        return failure(`engine call "${method}" failed: ${(e as Error).message}`);
      }
    },
  };
}

// ------------------------------------------------------------------ compile

export interface CompileOptions {
  /** URL of the wasm binary (content-hashed in a build). */
  wasmURL: string;
  /** Size of the wasm at build time, for progress when the response is compressed. */
  buildBytes: number;
  /** Called on every chunk received (by every caller while the download runs). */
  onProgress?: (p: Progress) => void;
}

/** One compile per wasm URL per page; progress goes to every interested caller. */
const compiled = new Map<string, { module: Promise<WebAssembly.Module>; listeners: Set<(p: Progress) => void>; state: { last: Progress | null } }>();

/**
 * Downloads and compiles the engine once per page. Compilation overlaps the
 * download; the response itself goes to compileStreaming (not a re-wrapped
 * stream) so that Chromium can cache the compiled code for the next visit,
 * and a clone of it is read only to count bytes for the progress bar.
 */
export function compileEngine(opts: CompileOptions): Promise<WebAssembly.Module> {
  let entry = compiled.get(opts.wasmURL);
  if (!entry) {
    const listeners = new Set<(p: Progress) => void>();
    const state = { last: null as Progress | null };
    const module = (async () => {
      const response = await fetch(opts.wasmURL);
      if (!response.ok || response.body === null) throw new Error(`cannot download the engine: HTTP ${response.status}`);
      const total = expectedBytes(response.headers, opts.buildBytes);
      void countBytes(response.clone(), (received) => {
        state.last = { received, total };
        for (const fn of listeners) fn(state.last);
      });
      return WebAssembly.compileStreaming(response);
    })();
    entry = { module, listeners, state };
    compiled.set(opts.wasmURL, entry);
  }
  if (opts.onProgress) {
    entry.listeners.add(opts.onProgress);
    if (entry.state.last) opts.onProgress(entry.state.last);
    const fn = opts.onProgress;
    const listeners = entry.listeners;
    entry.module.finally(() => listeners.delete(fn)).catch(() => {});
  }
  return entry.module;
}

/** Reads a response body to its end, reporting the running byte count. */
async function countBytes(r: Response, onBytes: (n: number) => void): Promise<void> {
  const reader = r.body?.getReader();
  if (!reader) return;
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      received += value.byteLength;
      onBytes(received);
    }
  } catch {
    // The compile reports a broken download; the count only feeds the progress bar.
  }
}

// ------------------------------------------------------------------ worker

/** Messages between the page and engine-worker.ts. */
export type ToWorker = { type: 'start'; module: WebAssembly.Module } | { type: 'call'; id: number; method: string; args: string };
/** Answers carry `ms`: the Worker's time for the call (the engine and its JSON), for lastWorkerMs. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: string; ms?: number }
  /** An array answer in chunks: the first `keep` entries of the last "samples" answer
   *  when `delta` (else none), then the entries of `tail` (JSON arrays, parsed one
   *  per task so that the page never blocks long on a large answer). The page
   *  rejects a `keep` larger than what it holds and asks again. */
  | { type: 'array'; id: number; delta: boolean; keep: number; tail: Chunk[]; ms?: number }
  /** An answer whose value's `field` (an array) comes apart: `head` is the answer
   *  without it, `tail` its entries in JSON arrays, parsed one per task. */
  | { type: 'split'; id: number; head: string; field: string; tail: Chunk[]; ms?: number };

/** A chunk of an answer: a JSON array, as text or as its UTF-8 bytes (the Worker transfers bytes). */
export type Chunk = string | Uint8Array;

const utf8 = new TextDecoder();

/**
 * Resolves in a task of its own, so that the page may render before it: a
 * message to itself, as nested setTimeout(0)s wait at least 4 ms each after
 * the fifth (50 chunks of a 100,000-step answer: 180 ms of waiting).
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
/** Appends the JSON entries of the chunks to `into`, a chunk per task (the page may render between them). */
async function parseChunks(tail: Chunk[], into: unknown[]): Promise<void> {
  for (let i = 0; i < tail.length; i++) {
    if (i > 0) await nextTask();
    const c = tail[i]!;
    for (const s of JSON.parse(typeof c === 'string' ? c : utf8.decode(c)) as unknown[]) into.push(s);
  }
}

/**
 * Per bridge method, the Worker's time in ms for its last call (any engine on
 * the page): what the engine itself cost, apart from the page's parse and
 * render. Read by scripts/bench-browser.mjs through the player.
 */
export const lastWorkerMs = new Map<string, number>();

/**
 * Starts one engine in its own Worker from a compiled module. Each instance
 * has its own session; instances share nothing but the module.
 */
export function startEngine(module: Promise<WebAssembly.Module>): Promise<EngineClient> {
  return module.then(
    (mod) =>
      new Promise<EngineClient>((resolve, reject) => {
        const worker = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module', name: 'rolloutlab-engine' });
        const pending = new Map<number, (raw: string | Result<unknown>) => void>();
        /** The last "samples" value, which the Worker's deltas apply to. */
        let samples: unknown[] = [];
        let inOrder: Promise<void> = Promise.resolve();
        /** Chunked answers ('array', 'split') received and not yet settled: every answer after them waits (inOrder), so answers settle in the order of their calls. */
        let parsing = 0;
        let nextID = 1;
        let dead: string | null = null;
        // A failure settles the calls not answered yet at once; answers
        // already received and queued behind a chunked one still settle after it.
        const fail = (message: string) => {
          dead = message;
          for (const settle of pending.values()) settle(JSON.stringify({ ok: false, error: { message } }));
          pending.clear();
          reject(new Error(message));
        };
        worker.onerror = (e) => fail(`the engine worker failed: ${e.message || 'unknown error'}`);
        /** The method of each pending call, for lastWorkerMs. */
        const methods = new Map<number, string>();
        worker.onmessage = (e: MessageEvent<FromWorker>) => {
          const m = e.data;
          if ((m.type === 'result' || m.type === 'array' || m.type === 'split') && m.ms !== undefined) {
            const method = methods.get(m.id);
            methods.delete(m.id);
            if (method) lastWorkerMs.set(method, m.ms);
          }
          if (m.type === 'ready') resolve(client);
          else if (m.type === 'failed') fail(m.message);
          else if (m.type === 'array') {
            const settle = pending.get(m.id);
            pending.delete(m.id);
            parsing++;
            inOrder = inOrder.then(async () => {
              if (m.delta && m.keep > samples.length) {
                // The bridge counts on more samples than this page holds (an
                // earlier answer failed to parse after this call was sent):
                // ask again, saying how many are held, for a full resync.
                samples = [];
                void client.call('samples').then((r) => settle?.(r));
                return;
              }
              const next = m.delta ? samples.slice(0, m.keep) : [];
              try {
                await parseChunks(m.tail, next);
              } catch (err) {
                if (m.delta) samples = [];
                settle?.(failure(`malformed engine result: ${(err as Error).message}`));
                return;
              }
              if (!m.delta) return settle?.({ ok: true, value: next });
              samples = next;
              // A copy: callers may change the array they get.
              settle?.({ ok: true, value: samples.slice() });
            }).finally(() => parsing--);
          } else if (m.type === 'split') {
            const settle = pending.get(m.id);
            pending.delete(m.id);
            parsing++;
            inOrder = inOrder
              .then(async () => {
                const head = parseResult<Record<string, unknown>>(m.head);
                if (!head.ok) return settle?.(head);
                if (typeof head.value !== 'object' || head.value === null) return settle?.(failure('malformed engine result: a split answer without a value'));
                const list: unknown[] = [];
                await parseChunks(m.tail, list);
                head.value[m.field] = list;
                settle?.(head);
              })
              // The chain goes on: the answers queued after this one still settle.
              .catch((err: unknown) => settle?.(failure(`malformed engine result: ${(err as Error).message}`)))
              .finally(() => parsing--);
          } else if (parsing > 0) {
            // Behind a chunked answer still being parsed: in order, as a
            // move answered after a settle (Back pressed during it) must be
            // applied after the settle, not before.
            const settle = pending.get(m.id);
            pending.delete(m.id);
            inOrder = inOrder.then(() => settle?.(m.result));
          } else {
            pending.get(m.id)?.(m.result);
            pending.delete(m.id);
          }
        };
        const client: EngineClient = {
          async call<T>(method: string, args?: unknown): Promise<Result<T>> {
            // "samples" tells the bridge how many samples this page holds, so
            // that its answer never keeps more of them than there are.
            const enc = encodeArgs(method, method === 'samples' ? { have: samples.length } : args);
            if ('error' in enc) return enc.error;
            if (dead) return failure(`engine call "${method}" failed: ${dead}`);
            const id = nextID++;
            const raw = await new Promise<string | Result<unknown>>((settle) => {
              pending.set(id, settle);
              methods.set(id, method);
              worker.postMessage({ type: 'call', id, method, args: enc.json } satisfies ToWorker);
            });
            return typeof raw === 'string' ? parseResult<T>(raw) : (raw as Result<T>);
          },
          close() {
            worker.terminate();
            if (!dead) fail('the engine was stopped');
          },
        };
        worker.postMessage({ type: 'start', module: mod } satisfies ToWorker);
      }),
  );
}

export interface LoadOptions extends CompileOptions {}

/** Compiles (once per page) and starts an engine in a new Worker. */
export function loadEngine(opts: LoadOptions): Promise<EngineClient> {
  return startEngine(compileEngine(opts));
}

// ------------------------------------------------------------------ before ready

/** A bridge answer computed at build time (`go run ./wasm load`). */
export interface Prerendered {
  method: string;
  /** The exact arguments the answer is for (compared field by field). */
  args: Record<string, unknown>;
  /** The bridge's JSON envelope. */
  result: string;
}

/** Whether a call's arguments are exactly the prerendered ones. */
export function sameArgs(a: unknown, b: Record<string, unknown>): boolean {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => (a as Record<string, unknown>)[k] === b[k]);
}

/**
 * An EngineClient usable at once: calls wait for `ready`. The first call that
 * matches `prerendered` is answered immediately from it, and the same call is
 * still sent to the engine (first, before any later call) so that its session
 * is in the state the answer describes (onLive is called when it has been).
 * If the engine fails to start, every call fails with its message.
 */
export function deferredClient(ready: Promise<EngineClient>, prerendered?: Prerendered, onLive?: () => void): EngineClient {
  let unused = prerendered;
  return {
    async call<T>(method: string, args?: unknown): Promise<Result<T>> {
      if (unused && method === unused.method && sameArgs(args, unused.args)) {
        const answer = unused.result;
        unused = undefined;
        void ready
          .then((e) => e.call(method, args))
          .then(() => onLive?.())
          .catch(() => {});
        return parseResult<T>(answer);
      }
      let engine: EngineClient;
      try {
        engine = await ready;
      } catch (e) {
        return failure(`engine call "${method}" failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      return engine.call<T>(method, args);
    },
  };
}
