// Vite builds the web app from web/ into web/dist; Vitest runs web/src/*.test.ts.
// rolloutlab.wasm and wasm_exec.js are produced by `make wasm` into
// web/public and copied verbatim into the build.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Size of the built wasm, so the loader can show progress even when the
 *  server compresses it (Content-Length then counts compressed bytes). */
function wasmBytes(): number {
  try {
    return statSync(new URL('./public/rolloutlab.wasm', import.meta.url)).size;
  } catch {
    return 0;
  }
}

export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  // Keep caches out of web/: the one node_modules is at the repository root.
  cacheDir: '../node_modules/.vite',
  define: {
    __WASM_BYTES__: JSON.stringify(wasmBytes()),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: { host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
