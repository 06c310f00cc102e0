// The engine's Worker: receives the compiled WebAssembly.Module from the page
// (engine.ts compiles it once per page), runs the Go program (wasm/) here and
// answers bridge calls in order. Go's runtime shim (wasm_exec.js from GOROOT)
// is bundled into this chunk by web/vite.config.ts.
import 'virtual:wasm-exec';
import type { FromWorker, ToWorker } from './engine';

interface Bridge {
  call(method: string, argsJSON: string): string;
  ready: boolean;
}
const scope = globalThis as unknown as {
  rolloutlab?: Bridge;
  __rolloutlabOnReady?: () => void;
  postMessage(m: FromWorker): void;
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
};

let bridge: Bridge | null = null;
let failed: string | null = null;

async function start(module: WebAssembly.Module): Promise<void> {
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  await new Promise<void>((resolve, reject) => {
    scope.__rolloutlabOnReady = resolve;
    go.run(instance).then(
      () => reject(new Error('the engine exited')),
      (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
  delete scope.__rolloutlabOnReady;
  if (!scope.rolloutlab?.ready) throw new Error('the engine did not install its bridge');
  bridge = scope.rolloutlab;
}

function answer(id: number, method: string, args: string): string {
  if (!bridge) return JSON.stringify({ ok: false, error: { message: failed ?? 'the engine is not running' } });
  try {
    return bridge.call(method, args);
  } catch (e) {
    return JSON.stringify({ ok: false, error: { message: `engine call "${method}" failed: ${(e as Error).message}` } });
  }
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'start') {
    start(m.module).then(
      () => scope.postMessage({ type: 'ready' }),
      (err: unknown) => {
        failed = err instanceof Error ? err.message : String(err);
        scope.postMessage({ type: 'failed', message: failed });
      },
    );
    return;
  }
  scope.postMessage({ type: 'result', id: m.id, result: answer(m.id, m.method, m.args) });
};
