// Loads rolloutlab.wasm in the background and exposes a typed client over the
// Go bridge (wasm/). The page never waits for this: it renders first and
// enables engine features when `loadEngine` resolves.

import { expectedBytes, type Progress } from './progress';
import { failure, parseResult, type Result } from './result';

/** A synchronous bridge function: `globalThis.rolloutlab.call`. */
export type BridgeCall = (method: string, argsJSON: string) => string;

/** The typed, asynchronous face of the engine. */
export interface EngineClient {
  /** Calls a bridge method; never rejects: failures are `{ ok: false }`. */
  call<T = unknown>(method: string, args?: unknown): Promise<Result<T>>;
}

/** What the "version" method returns. */
export interface VersionInfo {
  /** Rollout Lab engine release, e.g. "0.1.0". */
  engine: string;
  /** Kubernetes release the controllers reproduce, e.g. "v1.36.3". */
  upstream: string;
}

/**
 * Wraps a synchronous bridge function into an EngineClient. Arguments are
 * JSON-encoded here; exceptions thrown by the bridge (e.g. the Go program has
 * exited) become failed Results.
 */
export function createClient(bridge: BridgeCall): EngineClient {
  return {
    async call<T>(method: string, args?: unknown): Promise<Result<T>> {
      let argsJSON: string;
      try {
        argsJSON = args === undefined ? 'null' : JSON.stringify(args);
      } catch (e) {
        return failure(`cannot encode arguments for "${method}": ${(e as Error).message}`);
      }
      try {
        return parseResult<T>(bridge(method, argsJSON));
      } catch (e) {
        return failure(`engine call "${method}" failed: ${(e as Error).message}`);
      }
    },
  };
}

export interface LoadOptions {
  /** URL of the wasm binary. */
  wasmURL: string;
  /** URL of Go's wasm_exec.js (defines globalThis.Go). */
  runtimeURL: string;
  /** Size of the wasm at build time, for progress when the response is compressed. */
  buildBytes: number;
  /** Called on every chunk received. */
  onProgress?: (p: Progress) => void;
}

/**
 * Streams and compiles the wasm (compilation overlaps the download), runs the
 * Go program and resolves once its bridge is installed.
 */
export async function loadEngine(opts: LoadOptions): Promise<EngineClient> {
  const [response] = await Promise.all([fetch(opts.wasmURL), loadScript(opts.runtimeURL)]);
  if (!response.ok || response.body === null) {
    throw new Error(`cannot download the engine: HTTP ${response.status}`);
  }
  const total = expectedBytes(response.headers, opts.buildBytes);
  let received = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        opts.onProgress?.({ received, total });
        controller.enqueue(chunk);
      },
    }),
  );
  const go = new Go();
  const { instance } = await WebAssembly.instantiateStreaming(
    new Response(counted, { headers: { 'Content-Type': 'application/wasm' } }),
    go.importObject,
  );
  await new Promise<void>((resolve, reject) => {
    window.__rolloutlabOnReady = resolve;
    go.run(instance).then(
      () => reject(new Error('the engine exited during start-up')),
      (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
  delete window.__rolloutlabOnReady;
  const bridge = window.rolloutlab;
  if (!bridge?.ready) throw new Error('the engine did not install its bridge');
  return createClient((method, argsJSON) => bridge.call(method, argsJSON));
}

/** Loads a classic script once; resolves when it has run. */
function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(script);
  });
}
