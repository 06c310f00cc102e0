// Vite builds the web app from web/ into web/dist; Vitest runs web/src/*.test.ts.
// rolloutlab.wasm and wasm_exec.js are produced by `make wasm` into web/public.
//
// The build (plugin rolloutlabEngine below):
//   - ships the wasm content-hashed as assets/rolloutlab-<hash>.wasm (cached
//     for a year, immutable) and drops the unhashed copy from dist;
//   - bundles Go's wasm_exec.js into the engine Worker's chunk;
//   - prerenders the default scenario's step 0 (`go run ./wasm load`), so the
//     page shows it before the wasm has arrived;
//   - builds in two passes, so that the embed code never changes the app's
//     first load (shared chunks would split the app's bundle): the app
//     (index.html), then with ROLLOUTLAB_BUILD=embed the iframe player
//     (embed.html, served at /embed) and the embed script (/embed.js, a
//     stable name that host pages reference) into the same dist;
//     docs/embed.html is copied to dist/docs/.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
const wasmPath = fileURLToPath(new URL('./public/rolloutlab.wasm', import.meta.url));

/** The default scenario and the arguments web/src/app.ts loads it with (MAX_PODS). */
const DEFAULT_SCENARIO = 'rolling-update-10-3-2';
const MAX_PODS = 150;

/** Size of the built wasm, so the loader can show progress even when the
 *  server compresses it (Content-Length then counts compressed bytes). */
function wasmBytes(): number {
  try {
    return statSync(wasmPath).size;
  } catch {
    return 0;
  }
}

/** The hashed file name of the wasm in a build (empty when it was not built). */
function hashedWasmName(): string {
  if (!existsSync(wasmPath)) return '';
  const hash = createHash('sha256').update(readFileSync(wasmPath)).digest('hex').slice(0, 12);
  return `assets/rolloutlab-${hash}.wasm`;
}

function wasmExecSource(): string {
  const local = fileURLToPath(new URL('./public/wasm_exec.js', import.meta.url));
  if (existsSync(local)) return readFileSync(local, 'utf8');
  const goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
  return readFileSync(`${goroot}/lib/wasm/wasm_exec.js`, 'utf8');
}

/** The bridge's answer to the default load, computed natively by the same Go code. */
function prerenderStep0(): string {
  const source = readFileSync(`${repo}scenarios/${DEFAULT_SCENARIO}.yaml`, 'utf8');
  const args = { source, name: `${DEFAULT_SCENARIO}.yaml`, maxPods: MAX_PODS };
  const result = execFileSync('go', ['run', './wasm', 'load'], { cwd: repo, input: JSON.stringify(args), encoding: 'utf8', maxBuffer: 16 << 20 }).trim();
  if (!result.startsWith('{"ok":true')) throw new Error(`prerendering ${DEFAULT_SCENARIO} failed: ${result.slice(0, 300)}`);
  return `export default ${JSON.stringify({ method: 'load', args, result })};`;
}

function rolloutlabEngine(): Plugin {
  let building = false;
  let wasmName = '';
  return {
    name: 'rolloutlab-engine',
    config(_, env) {
      building = env.command === 'build' && !process.env.VITEST;
      wasmName = building ? hashedWasmName() : '';
      return { define: { __WASM_URL__: JSON.stringify(wasmName ? `/${wasmName}` : '/rolloutlab.wasm') } };
    },
    resolveId(id) {
      return id === 'virtual:wasm-exec' || id === 'virtual:step0' ? `\0${id}` : null;
    },
    load(id) {
      if (id === '\0virtual:wasm-exec') return wasmExecSource();
      if (id === '\0virtual:step0') return prerenderStep0();
      return null;
    },
    generateBundle() {
      if (!building) return;
      if (wasmName) this.emitFile({ type: 'asset', fileName: wasmName, source: readFileSync(wasmPath) });
      this.emitFile({ type: 'asset', fileName: 'docs/embed.html', source: readFileSync(`${repo}docs/embed.html`, 'utf8') });
    },
    closeBundle() {
      if (!building) return;
      // Only the hashed copy is referenced; the worker chunk carries wasm_exec.js.
      for (const f of ['rolloutlab.wasm', 'wasm_exec.js']) rmSync(`${root}dist/${f}`, { force: true });
    },
  };
}

/** The second build pass (see the top of this file). */
const embedPass = process.env.ROLLOUTLAB_BUILD === 'embed';

export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  // Keep caches out of web/: the one node_modules is at the repository root.
  cacheDir: '../node_modules/.vite',
  define: {
    __WASM_BYTES__: JSON.stringify(wasmBytes()),
  },
  plugins: [rolloutlabEngine()],
  worker: {
    format: 'es',
    plugins: () => [rolloutlabEngine()],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: !embedPass,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: {
      input: embedPass ? { embedFrame: `${root}embed.html`, embed: `${root}src/embed/script.ts` } : { main: `${root}index.html` },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'embed' ? 'embed.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: { host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
