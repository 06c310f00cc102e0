// Types for the Go runtime shim that wasm_exec.js (from $(go env GOROOT)/lib/wasm,
// bundled into the engine Worker) installs as globalThis.Go.
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
  /** The running app (scripts/bench-browser.mjs and the e2e tests drive it). */
  __rolloutlabApp?: import('./app').App;
}

declare module 'virtual:wasm-exec' {}
declare module 'virtual:step0' {
  /** The default scenario's load, answered at build time (web/vite.config.ts). */
  const prerendered: import('./engine').Prerendered;
  export default prerendered;
}
/** URL of the content-hashed engine binary. */
declare const __WASM_URL__: string;

interface Window {
  /** The page's engine client (e2e tests call the bridge through it). */
  __rolloutlabEngine?: import('./engine').EngineClient;
  /** The default scenario's step 0 as prerendered at build time. */
  __rolloutlabStep0?: import('./engine').Prerendered;
}
