#!/usr/bin/env node
// Browser timing of the built app in Debian's Chromium, served by the real
// CLI. For each run (a fresh browser context, so nothing is cached) it
// measures, from the start of navigation:
//   first content   the first-contentful-paint entry
//   engine ready    the "rolloutlab:engine-ready" mark set by web/src/main.ts
//   first step      the "rolloutlab:first-step-rendered" mark: the default
//                   scenario loaded and its step 0 on screen
//   bytes           bytes transferred for the first load (Resource Timing
//                   transferSize: compressed bytes on the wire, headers included)
// and prints the median and worst of each. The first step is the default
// scenario's step 0, prerendered at build time, so it is on screen before the
// engine; "first live step" (mark "rolloutlab:first-live-step") is when the
// engine in its Worker has loaded that scenario too.
// Repeat visits: in one browser context (HTTP cache and Chromium's code
// cache for the wasm kept) the page is loaded once, then again --runs times.
// Responsiveness: with a 10,000-replica rolling update playing (and then
// seeking) the longest main-thread task (PerformanceObserver "longtask") is
// reported; the engine runs in a Worker, so the page must stay under 50 ms.
// Then, in one page, it times steps
// (engine call + synchronous render, window.__rolloutlabApp.benchStep) during
// a rolling update of a generated Deployment of 100 and of 1,000 replicas:
// the scenario is loaded and settled, the image changed, then every event
// step is timed until the run is idle (or --max-steps).
//
// Usage: node scripts/bench-browser.mjs [--runs 5] [--max-steps 4000] [--play-seconds 8] [--json out.json]
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { chromium } from 'playwright-core';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const READY_TIMEOUT_MS = 60_000;
const SERVER_START_TIMEOUT_MS = 10_000;

function parseArgs(argv) {
  const opts = { runs: 5, json: null, maxSteps: 4000, playSeconds: 8 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') opts.runs = Number(argv[++i]);
    else if (argv[i] === '--max-steps') opts.maxSteps = Number(argv[++i]);
    else if (argv[i] === '--json') opts.json = argv[++i];
    else if (argv[i] === '--play-seconds') opts.playSeconds = Number(argv[++i]);
    else {
      console.error(`bench-browser: unknown argument ${argv[i]}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(opts.runs) || opts.runs < 1) {
    console.error('bench-browser: --runs must be a positive integer');
    process.exit(2);
  }
  return opts;
}

/** Starts `bin/rolloutlab serve` on a free port; resolves with its URL. */
function startServer() {
  // BENCH_SERVER / BENCH_DIST: use a build made elsewhere (as E2E_SERVER / E2E_DIST).
  const proc = spawn(process.env.BENCH_SERVER ?? 'bin/rolloutlab', ['serve', '--addr', '127.0.0.1:0', '--dir', process.env.BENCH_DIST ?? 'web/dist'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill();
      reject(new Error('server did not announce its URL'));
    }, SERVER_START_TIMEOUT_MS);
    let out = '';
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/running at (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop: () => proc.kill('SIGTERM') });
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}`));
    });
  });
}

/** Loads url in page and reads the marks of that navigation. */
async function loadTimes(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-app="ready"]', { timeout: READY_TIMEOUT_MS });
  return page.evaluate(async () => {
    const live = performance.getEntriesByName('rolloutlab:first-live-step')[0];
    const liveMs = live ? live.startTime : NaN;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const ready = performance.getEntriesByName('rolloutlab:engine-ready')[0];
    const first = performance.getEntriesByName('rolloutlab:first-step-rendered')[0];
    const nav = performance.getEntriesByType('navigation')[0];
    // Only what the first load needs: the lazily loaded editor chunk is excluded.
    const resources = performance.getEntriesByType('resource').filter((r) => !/editor-cm/.test(r.name));
    const bytes = (nav ? nav.transferSize : 0) + resources.reduce((s, r) => s + r.transferSize, 0);
    return {
      firstContentMs: fcp ? fcp.startTime : NaN,
      engineReadyMs: ready ? ready.startTime : NaN,
      firstStepMs: first ? first.startTime : NaN,
      firstLiveStepMs: liveMs,
      firstLoadBytes: bytes,
    };
  });
}

async function measure(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    return await loadTimes(page, url);
  } finally {
    await context.close();
  }
}

/** Repeat visits: one context (HTTP cache and code cache kept), a first visit, then n more. */
async function measureRepeat(browser, url, n) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await loadTimes(page, url);
    // Chromium writes the wasm's compiled code to its cache in the background.
    await page.waitForTimeout(2000);
    const runs = [];
    for (let i = 0; i < n; i++) runs.push(await loadTimes(page, url));
    return runs;
  } finally {
    await context.close();
  }
}

/**
 * Plays a rolling update of n replicas at the fastest speed for playSeconds,
 * then seeks (middle, start, end, middle), recording main-thread long tasks.
 */
async function responsiveness(page, n, playSeconds) {
  return page.evaluate(
    async ({ source, playSeconds }) => {
      const app = window.__rolloutlabApp;
      const tasks = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push({ phase: window.__benchPhase, ms: e.duration });
      });
      observer.observe({ type: 'longtask' });
      const t0 = performance.now();
      window.__benchPhase = 'load';
      if (!(await app.load(source, 'bench.yaml'))) throw new Error('bench scenario did not load');
      await app.advance('settle');
      await app.act({ type: 'setImage', target: 'deployment/web', image: 'nginx:1.26' });
      const setupMs = performance.now() - t0;
      // Let the fetches that follow a load (samples, timeline) finish: the
      // phases below measure playing and seeking, not the load.
      await new Promise((r) => setTimeout(r, 3000));
      window.__benchPhase = 'play';
      const speed = document.getElementById('speed');
      speed.value = speed.options[speed.options.length - 1].value;
      const before = app.current().step;
      app.play();
      await new Promise((r) => setTimeout(r, playSeconds * 1000));
      app.pause();
      await new Promise((r) => setTimeout(r, 300));
      const played = app.current().step - before;
      window.__benchPhase = 'seek';
      const max = app.current().maxStep;
      const seeks = [];
      for (const target of [Math.floor(max / 2), 0, max, Math.floor(max / 3)]) {
        const s0 = performance.now();
        await app.seek(target);
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        seeks.push({ target, ms: performance.now() - s0 });
      }
      await new Promise((r) => setTimeout(r, 200));
      observer.disconnect();
      const longest = (phase) => Math.max(0, ...tasks.filter((t) => t.phase === phase).map((t) => t.ms));
      return { setupMs, played, maxStep: max, seeks, longestPlayMs: longest('play'), longestSeekMs: longest('seek'), longestLoadMs: longest('load'), longTasks: tasks.length };
    },
    { source: generatedScenario(n), playSeconds },
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** A Deployment of n replicas (25% surge/unavailable) and nothing else; the
 *  pod limit leaves room for the surge (10,000 replicas + 25%). */
function generatedScenario(n) {
  return `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata:
  name: bench-${n}
  description: generated by scripts/bench-browser.mjs
spec:
  seed: 1
  limits: {maxPods: ${Math.max(10000, Math.ceil(n * 1.5))}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: ${n}
  selector:
    matchLabels: {app: web}
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`;
}

/** Times every event step of a rolling update of n replicas, in the page. */
async function stepTimes(page, n, maxSteps) {
  return page.evaluate(
    async ({ source, maxSteps }) => {
      const app = window.__rolloutlabApp;
      if (!(await app.load(source, 'bench.yaml'))) throw new Error('bench scenario did not load');
      await app.advance('settle');
      await app.act({ type: 'setImage', target: 'deployment/web', image: 'nginx:1.26' });
      app.render();
      const times = [];
      for (let i = 0; i < maxSteps; i++) {
        const ms = await app.benchStep();
        if (ms < 0) break;
        times.push(ms);
      }
      return times;
    },
    { source: generatedScenario(n), maxSteps },
  );
}
const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const runs = [];
  let repeats = [];
  const steps = {};
  let big = null;
  try {
    for (let i = 0; i < opts.runs; i++) runs.push(await measure(browser, server.url));
    repeats = await measureRepeat(browser, server.url, opts.runs);
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('body[data-app="ready"]', { timeout: READY_TIMEOUT_MS });
    for (const n of [100, 1000]) steps[n] = await stepTimes(page, n, opts.maxSteps);
    await context.close();
    const bigContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const bigPage = await bigContext.newPage();
    await bigPage.goto(server.url);
    await bigPage.waitForSelector('body[data-app="ready"]', { timeout: READY_TIMEOUT_MS });
    try {
      big = await responsiveness(bigPage, 10000, opts.playSeconds);
    } catch (e) {
      big = { error: e instanceof Error ? e.message : String(e) };
    }
    await bigContext.close();
  } finally {
    await browser.close();
    server.stop();
  }
  const summary = {};
  console.log(`bench-browser: ${opts.runs} cold loads of ${server.url} (loopback, no throttling)`);
  const labels = {
    firstContentMs: 'navigation → first content   ',
    firstStepMs: 'navigation → first step      ',
    engineReadyMs: 'navigation → engine ready    ',
    firstLiveStepMs: 'navigation → first live step ',
  };
  for (const key of Object.keys(labels)) {
    const xs = runs.map((r) => r[key]);
    summary[key] = { median: median(xs), max: Math.max(...xs) };
    console.log(`bench-browser: ${labels[key]}  median ${fmt(summary[key].median)}  max ${fmt(summary[key].max)}`);
  }
  console.log(`bench-browser: ${repeats.length} repeat visits (same browser context: HTTP cache and compiled wasm kept)`);
  for (const key of ['firstStepMs', 'engineReadyMs', 'firstLiveStepMs']) {
    const xs = repeats.map((r) => r[key]);
    summary[`repeat.${key}`] = { median: median(xs), max: Math.max(...xs) };
    console.log(`bench-browser: repeat ${labels[key].replace('navigation', 'nav')}  median ${fmt(median(xs))}  max ${fmt(Math.max(...xs))}`);
  }
  const bytes = runs.map((r) => r.firstLoadBytes);
  summary.firstLoadBytes = { median: median(bytes), max: Math.max(...bytes) };
  console.log(`bench-browser: first load transferred  median ${(summary.firstLoadBytes.median / 1000).toFixed(1)} kB  max ${(summary.firstLoadBytes.max / 1000).toFixed(1)} kB`);
  for (const [n, xs] of Object.entries(steps)) {
    summary[`step${n}`] = { steps: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: Math.max(...xs) };
    const s = summary[`step${n}`];
    console.log(`bench-browser: step (engine + render), ${String(n).padStart(4)} replicas: ${s.steps} steps  p50 ${s.p50.toFixed(2)} ms  p95 ${s.p95.toFixed(2)} ms  max ${s.max.toFixed(1)} ms`);
  }
  if (big && !big.error) {
    summary.responsiveness10k = big;
    console.log(`bench-browser: main thread, 10000 replicas: longest task while playing ${big.longestPlayMs.toFixed(0)} ms (${big.played} steps in ${opts.playSeconds} s), while seeking ${big.longestSeekMs.toFixed(0)} ms (seeks ${big.seeks.map((x) => `${x.target}:${x.ms.toFixed(0)}ms`).join(' ')}); loading it ${big.longestLoadMs.toFixed(0)} ms`);
  } else {
    console.log(`bench-browser: main thread, 10000 replicas: not measured: ${big?.error}`);
  }
  if (opts.json) {
    await mkdir(dirname(opts.json), { recursive: true });
    await writeFile(opts.json, JSON.stringify({ runs, repeats, summary, steps, responsiveness10k: big }, null, 2));
  }
}

await main();
