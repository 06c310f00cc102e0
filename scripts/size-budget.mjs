#!/usr/bin/env node
// Brotli-compresses the built app (web/dist) the way it is served, writes the
// .br files next to the originals (`rolloutlab serve` sends them to clients
// that accept br) and checks what a first visit downloads against the budget.
//
// A first load fetches: index.html, every local file index.html references
// (scripts, stylesheets, module preloads, icons), and the engine files that
// web/src/engine.ts loads at start-up: the content-hashed wasm and the engine
// Worker's chunk (which carries Go's wasm_exec.js).
//
// Compressed bytes are cached by content hash in node_modules/.cache, so an
// unchanged wasm costs nothing on the next build.
//
// Usage: node scripts/size-budget.mjs [--dir web/dist] [--enforce] [--json out.json]
//   --enforce   exit 1 when the first load is over budget (make test does this)
//   --json      also write the numbers as JSON (make bench does this)
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, posix, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';

/** The first-load budget: 2.8 MB (decimal) of brotli-compressed bytes. */
const BUDGET_BYTES = 2_800_000;
/** Fetched by web/src/engine.ts on start-up, not referenced from the HTML. */
const ENGINE_FILES = [/^assets\/rolloutlab-[0-9a-f]+\.wasm$/, /^assets\/engine-worker-[\w-]+\.js$/];
/** Formats that are already compressed; brotli would only add overhead. */
const INCOMPRESSIBLE = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.woff', '.woff2', '.br', '.gz', '.zip']);

const compress = promisify(brotliCompress);

/**
 * Encoder settings tried on each file; the smallest output is kept (any of
 * them decodes to the same bytes). Brotli's size of the 20 MB wasm swings by
 * tens of kB with small changes to the code, mostly with the encoder's
 * block splitting: on one build, 2,759.8 kB with brotli's own settings and
 * 2,775.3 with one postfix bit (NPOSTFIX 1); on a build with 25 kB more raw
 * code, 2,788.0 and 2,776.4; on the next, 2,797.9 to 2,799.5 with 21- or
 * 22-bit blocks (LGBLOCK), 2,773.4 with 20, 2,772.3 with 16 and a postfix
 * bit, and on a later build 2,771.1 with 17. The ones below were the best
 * of those; trying them costs about 35 s each for a new wasm, run two at a
 * time (a q11 encoder with a 16 MB window holds a few hundred MB), cached by
 * content afterwards.
 */
const ENCODER_CHOICES = [
  {},
  { [constants.BROTLI_PARAM_NPOSTFIX]: 1, [constants.BROTLI_PARAM_NDIRECT]: 0 },
  { [constants.BROTLI_PARAM_LGBLOCK]: 16, [constants.BROTLI_PARAM_NPOSTFIX]: 1, [constants.BROTLI_PARAM_NDIRECT]: 0 },
  { [constants.BROTLI_PARAM_LGBLOCK]: 20 },
  { [constants.BROTLI_PARAM_LGBLOCK]: 17 },
];

/** Compressed outputs by content hash: brotli q11 of a 20 MB wasm takes over
 *  a minute, and most builds leave the wasm unchanged. Entries not used by a
 *  run are deleted at its end. */
const CACHE_DIR = 'node_modules/.cache/rolloutlab-brotli';
const usedCacheEntries = new Set();

/** The settings every choice shares: quality 11, a 16 MB window. */
const BASE_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 };

async function cachedCompress(raw) {
  const key = createHash('sha256').update(JSON.stringify([BASE_PARAMS, ENCODER_CHOICES])).update(raw).digest('hex');
  usedCacheEntries.add(key);
  const entry = join(CACHE_DIR, key);
  try {
    return await readFile(entry);
  } catch {
    const outs = [];
    for (let i = 0; i < ENCODER_CHOICES.length; i += 2) {
      const pair = ENCODER_CHOICES.slice(i, i + 2);
      outs.push(...(await Promise.all(pair.map((choice) => compress(raw, { params: { ...BASE_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length, ...choice } })))));
    }
    const br = outs.reduce((a, b) => (b.length < a.length ? b : a));
    await mkdir(CACHE_DIR, { recursive: true });
    // Written whole, then renamed: a run killed while writing leaves no
    // truncated entry for the next to serve.
    const tmp = `${entry}.${process.pid}.tmp`;
    await writeFile(tmp, br);
    await rename(tmp, entry);
    return br;
  }
}

async function pruneCache() {
  let names = [];
  try {
    names = await readdir(CACHE_DIR);
  } catch {
    return;
  }
  await Promise.all(names.filter((n) => !usedCacheEntries.has(n)).map((n) => rm(join(CACHE_DIR, n), { force: true })));
}

function parseArgs(argv) {
  const opts = { dir: 'web/dist', enforce: false, json: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--enforce') opts.enforce = true;
    else if (a === '--dir') opts.dir = argv[++i];
    else if (a === '--json') opts.json = argv[++i];
    else {
      console.error(`size-budget: unknown argument ${a}`);
      process.exit(2);
    }
  }
  return opts;
}

async function listFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (rel.split('/').some((seg) => seg.startsWith('.')) || rel.endsWith('.br') || rel.endsWith('.map')) continue;
    if (rel === '_headers' || rel === '_redirects') continue; // asset-server configuration, never served
    out.push(rel);
  }
  return out.sort();
}

/** Local paths referenced by src= or href= in index.html, relative to dir. */
function htmlReferences(html) {
  const refs = new Set();
  for (const m of html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/g)) {
    const url = m[1];
    if (/^(?:[a-z]+:|\/\/|#)/i.test(url)) continue; // data:, https:, protocol-relative, fragments
    refs.add(posix.normalize(url.split(/[?#]/)[0].replace(/^\.?\//, '')));
  }
  return refs;
}

async function brotliSize(dir, rel) {
  const raw = await readFile(join(dir, rel));
  if (INCOMPRESSIBLE.has(extname(rel).toLowerCase())) return { raw: raw.length, br: raw.length };
  const br = await cachedCompress(raw);
  await writeFile(join(dir, `${rel}.br`), br);
  return { raw: raw.length, br: br.length };
}

const kB = (n) => (n / 1000).toFixed(1).padStart(9);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  try {
    await stat(join(opts.dir, 'index.html'));
  } catch {
    console.error(`size-budget: ${opts.dir}/index.html not found (run make build first)`);
    process.exit(1);
  }
  const files = await listFiles(opts.dir);
  const engineFiles = ENGINE_FILES.map((re) => files.find((f) => re.test(f)) ?? `${re.source} (engine file)`);
  const firstLoad = new Set(['index.html', ...engineFiles, ...htmlReferences(await readFile(join(opts.dir, 'index.html'), 'utf8'))]);
  const missing = [...firstLoad].filter((f) => !files.includes(f));
  // zlib's async API runs on libuv's thread pool, so files compress in parallel.
  const sizes = await Promise.all(files.map((f) => brotliSize(opts.dir, f)));
  await pruneCache();

  const rows = files.map((f, i) => ({ file: f, firstLoad: firstLoad.has(f), ...sizes[i] }));
  const total = rows.filter((r) => r.firstLoad).reduce((s, r) => s + r.br, 0);
  const over = total > BUDGET_BYTES;

  console.log(`size-budget: brotli q11 of ${opts.dir} (kB = 1000 bytes)`);
  console.log(`${'file'.padEnd(40)} ${'raw kB'.padStart(9)} ${'br kB'.padStart(9)}  first load`);
  for (const r of rows) console.log(`${r.file.padEnd(40)} ${kB(r.raw)} ${kB(r.br)}  ${r.firstLoad ? 'yes' : 'no'}`);
  for (const f of missing) console.log(`${f.padEnd(40)} ${'missing'.padStart(19)}  yes`);
  const pct = ((100 * total) / BUDGET_BYTES).toFixed(1);
  console.log(`size-budget: first load ${kB(total).trim()} kB brotli of ${kB(BUDGET_BYTES).trim()} kB budget (${pct}%): ${over ? 'OVER BUDGET' : 'ok'}`);

  if (opts.json) {
    await mkdir(dirname(opts.json), { recursive: true });
    await writeFile(opts.json, JSON.stringify({ budgetBytes: BUDGET_BYTES, firstLoadBytes: total, over, files: rows }, null, 2));
  }
  if (missing.length > 0) {
    console.error(`size-budget: first-load files missing from ${opts.dir}: ${missing.join(', ')}`);
    if (opts.enforce) process.exit(1);
  }
  if (over && opts.enforce) process.exit(1);
}

await main();
