// Types for the Go runtime shim that public/wasm_exec.js (copied from
// $(go env GOROOT)/lib/wasm at build time) installs as globalThis.Go.
declare class Go {
  importObject: WebAssembly.Imports;
  argv: string[];
  env: Record<string, string>;
  exited: boolean;
  /** Runs the program; the promise settles when the Go program exits. */
  run(instance: WebAssembly.Instance): Promise<void>;
}

/** Size in bytes of rolloutlab.wasm at build time; 0 when it was not built. */
declare const __WASM_BYTES__: number;

interface Window {
  /** The bridge installed by the Go program (wasm/main.go). */
  rolloutlab?: { call(method: string, argsJSON?: string): string; ready: boolean };
  /** Called by the Go program once `rolloutlab` is installed. */
  __rolloutlabOnReady?: () => void;
}

interface Window {
  /** The running app (scripts/bench-browser.mjs and the e2e tests drive it). */
  __rolloutlabApp?: import('./app').App;
}
