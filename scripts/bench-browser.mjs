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
// Steps: in one page, it times steps (engine call, synchronous render, the
// work the render leaves for the next frame, and the style and layout it
// needs, forced: window.__rolloutlabApp.benchStep; not painting) during a rolling update of a generated
// Deployment of 100 and of 1,000 replicas: the scenario is loaded and
// settled, the image changed, then every event step is timed until the run
// is idle (or --max-steps).
// Responsiveness ("big"): with a 10,000-replica rolling update playing (and
// then seeking) the longest main-thread task (PerformanceObserver
// "longtask") of each phase is reported, a task counting in the phase during
// which it started; the engine runs in a Worker, so the page must stay under
// 50 ms. Wall time counts the time the tab waited for a CPU on a busy
// machine, so the longest task's main-thread CPU time (a Chromium trace of
// the phase, RunTask events' thread time; "n/a" when the trace has none) is
// printed beside it: that is what the page itself costs. Seeks are timed
// from the call to the frame that shows the step, split into the engine's
// time in its Worker and the rest (messages, parse, render). Then the same
// run is advanced to --seek-steps steps and seeks are timed there.
// Rollouts: the engine's whole rolling update of a generated Deployment of
// 1,000 and of 10,000 replicas in the page's Worker (issue #10: wasm within
// 5x native): load, settle, change the image, then one "advance" to settle
// is timed, in the Worker (the engine, and the answer's encoding) and from
// the page; --rollout-runs times, in one page (as the Worker runs one
// scenario after another), the first run reported apart (its code is still
// being optimized and its memory grown).
//
// Usage: node scripts/bench-browser.mjs [--runs 5] [--max-steps 4000] [--play-seconds 8] [--seek-steps 100000]
//          [--rollout-runs 4] [--only loads,steps,big,rollouts] [--json out.json]
//   --only        run only these parts: loads (cold and repeat visits), steps
//                 (per-step times at 100 and 1,000 replicas), big (the
//                 10,000-replica play, seeks and the long-run seeks),
//                 rollouts (the 1k and 10k rollouts in the Worker)
//   --seek-steps  the length of the run the long-run seeks are timed in
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
/** The parts --only can name. */
const PARTS = ['loads', 'steps', 'big', 'rollouts'];
const SERVER_START_TIMEOUT_MS = 10_000;

function parseArgs(argv) {
  const opts = { runs: 5, json: null, maxSteps: 4000, playSeconds: 8, seekSteps: 100_000, rolloutRuns: 4, only: new Set(PARTS) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') opts.runs = Number(argv[++i]);
    else if (argv[i] === '--max-steps') opts.maxSteps = Number(argv[++i]);
    else if (argv[i] === '--json') opts.json = argv[++i];
    else if (argv[i] === '--play-seconds') opts.playSeconds = Number(argv[++i]);
    else if (argv[i] === '--seek-steps') opts.seekSteps = Number(argv[++i]);
    else if (argv[i] === '--rollout-runs') opts.rolloutRuns = Number(argv[++i]);
    else if (argv[i] === '--only') {
      opts.only = new Set((argv[++i] ?? '').split(','));
      const unknown = [...opts.only].filter((p) => !PARTS.includes(p));
      if (unknown.length) {
        console.error(`bench-browser: --only takes a comma-separated list of ${PARTS.join(', ')}; unknown: ${unknown.join(', ') || '(none given)'}`);
        process.exit(2);
      }
    }
    else {
      console.error(`bench-browser: unknown argument ${argv[i]}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(opts.runs) || opts.runs < 1) {
    console.error('bench-browser: --runs must be a positive integer');
    process.exit(2);
  }
  if (!Number.isInteger(opts.rolloutRuns) || opts.rolloutRuns < 2) {
    console.error('bench-browser: --rollout-runs must be an integer of at least 2 (the first is reported apart)');
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

/** Chromium trace categories for main-thread task times (ThreadControllerImpl::RunTask events, with thread time). */
const TRACE_CATEGORIES = ['toplevel'];

/**
 * The longest main-thread task in a Chromium trace, by thread (CPU) time:
 * { cpuMs, wallMs } of that task, and the longest wall time of any task.
 * cpuMs and cpuTaskWallMs are NaN when no task has a thread time (tdur: not
 * every platform's trace records one).
 */
function longestMainTask(buffer) {
  const json = JSON.parse(buffer.toString());
  const events = Array.isArray(json) ? json : json.traceEvents;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  let cpu = { cpuMs: NaN, wallMs: NaN };
  let wallMs = 0;
  for (const e of events) {
    if ((e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask') || e.ph !== 'X' || !main.has(`${e.pid}:${e.tid}`)) continue;
    if (typeof e.tdur === 'number' && (Number.isNaN(cpu.cpuMs) || e.tdur / 1000 > cpu.cpuMs)) cpu = { cpuMs: e.tdur / 1000, wallMs: e.dur / 1000 };
    wallMs = Math.max(wallMs, e.dur / 1000);
  }
  return { cpuMs: cpu.cpuMs, cpuTaskWallMs: cpu.wallMs, wallMs };
}

/** Runs fn with a trace of page running; resolves with fn's result and the trace's longest main-thread task. */
async function traced(browser, page, fn) {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  try {
    const result = await fn();
    return { result, trace: longestMainTask(await browser.stopTracing()) };
  } catch (e) {
    await browser.stopTracing().catch(() => {});
    throw e;
  }
}

/**
 * Seeks to each target in turn; per seek: total ms (call to the frame showing
 * it), the Worker's ms, and the longest unit of idle work the Worker did in
 * the pause before it (engine-worker.ts's "workerIdle": a call that comes
 * while one runs waits for it).
 */
function seekAll(page, targets, pauseMs = 0) {
  return page.evaluate(async ({ targets, pauseMs }) => {
    const app = window.__rolloutlabApp;
    const out = [];
    await app.engineCall('workerIdle');
    for (const target of targets) {
      if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      const s0 = performance.now();
      await app.seek(target);
      const s1 = performance.now();
      // The render is scheduled for the next frame: wait until it has run.
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const ms = performance.now() - s0;
      const units = (await app.engineCall('workerIdle')) ?? [];
      const longest = units.reduce((a, u) => (u.ms > a.ms ? u : a), { what: '', ms: 0 });
      out.push({ target, ms, callMs: s1 - s0, workerMs: app.workerMs('seek') ?? NaN, idleMs: longest.ms, idleWhat: longest.what, idleUnits: units.length });
    }
    return out;
  }, { targets, pauseMs });
}

/** "; the Worker's idle work in the pauses: N units, the longest X ms (kind)" of seeks made with pauses. */
function idleOf(seeks) {
  const longest = seeks.reduce((a, x) => (x.idleMs > a.idleMs ? x : a), { idleMs: 0, idleWhat: '' });
  const units = seeks.reduce((n, x) => n + (x.idleUnits ?? 0), 0);
  return `; the Worker's idle work in the pauses: ${units} units, the longest ${longest.idleMs.toFixed(0)} ms (${longest.idleWhat || 'none'})`;
}

/**
 * Plays a rolling update of n replicas at the fastest speed for playSeconds,
 * then seeks (middle, start, end, middle), recording main-thread long tasks
 * (PerformanceObserver, wall time) and tracing each phase (CPU time). Then,
 * unless seekSteps is 0, advances the run to seekSteps steps and times seeks
 * there (middle, start, end, one step back from the end, a third).
 */
async function responsiveness(browser, page, n, playSeconds, seekSteps) {
  const setup = await page.evaluate(async (source) => {
    const app = window.__rolloutlabApp;
    // Long tasks and phases are both recorded with their start times; a task
    // belongs to the phase during which it started (the observer delivers
    // entries later, often once the next phase has begun).
    window.__benchTasks = [];
    window.__benchPhases = [];
    window.__benchSetPhase = (name) => {
      const now = performance.now();
      const last = window.__benchPhases.at(-1);
      if (last) last.end = now;
      window.__benchPhases.push({ name, start: now, end: Infinity });
    };
    const record = (entries) => {
      for (const e of entries) window.__benchTasks.push({ start: e.startTime, ms: e.duration });
    };
    const observer = new PerformanceObserver((list) => record(list.getEntries()));
    observer.observe({ type: 'longtask' });
    /** The longest task that started during a phase of this name (entries not delivered yet included). */
    window.__benchLongest = (phase) => {
      record(observer.takeRecords());
      const spans = window.__benchPhases.filter((p) => p.name === phase);
      return Math.max(0, ...window.__benchTasks.filter((t) => spans.some((p) => t.start >= p.start && t.start < p.end)).map((t) => t.ms));
    };
    const t0 = performance.now();
    window.__benchSetPhase('load');
    if (!(await app.load(source, 'bench.yaml'))) throw new Error('bench scenario did not load');
    await app.advance('settle');
    await app.act({ type: 'setImage', target: 'deployment/web', image: 'nginx:1.26' });
    const setupMs = performance.now() - t0;
    // Let the fetches that follow a load (samples, timeline) finish: the
    // phases below measure playing and seeking, not the load.
    await new Promise((r) => setTimeout(r, 3000));
    return { setupMs };
  }, generatedScenario(n));
  const play = await traced(browser, page, () =>
    page.evaluate(async (playSeconds) => {
      const app = window.__rolloutlabApp;
      window.__benchSetPhase('play');
      const speed = document.getElementById('speed');
      speed.value = speed.options[speed.options.length - 1].value;
      const before = app.current().step;
      app.play();
      await new Promise((r) => setTimeout(r, playSeconds * 1000));
      app.pause();
      await new Promise((r) => setTimeout(r, 300));
      window.__benchSetPhase('idle');
      return { played: app.current().step - before };
    }, playSeconds),
  );
  const maxStep = await page.evaluate(() => (window.__benchSetPhase('seek'), window.__rolloutlabApp.current().maxStep));
  const seek = await traced(browser, page, async () => {
    const seeks = await seekAll(page, [Math.floor(maxStep / 2), 0, maxStep, Math.floor(maxStep / 3)]);
    await page.waitForTimeout(200);
    return seeks;
  });
  const longest = (phase) => page.evaluate((phase) => window.__benchLongest(phase), phase);
  const out = {
    setupMs: setup.setupMs,
    played: play.result.played,
    maxStep,
    seeks: seek.result,
    longestPlayMs: await longest('play'),
    longestSeekMs: await longest('seek'),
    longestLoadMs: await longest('load'),
    playTrace: play.trace,
    seekTrace: seek.trace,
  };
  if (seekSteps > 0) out.longRun = await longRunSeeks(browser, page, seekSteps);
  return out;
}

/** Advances the loaded run to at least `steps` steps, then times seeks in it. */
async function longRunSeeks(browser, page, steps) {
  const reached = await page.evaluate(async (steps) => {
    const app = window.__rolloutlabApp;
    window.__benchSetPhase('advance');
    await app.seek(app.current().maxStep);
    // In slices, so that no one answer carries tens of thousands of steps.
    while (app.current().maxStep < steps) {
      const taken = await app.advance('event', Math.min(5000, steps - app.current().maxStep));
      if (taken === 0) break;
    }
    await new Promise((r) => setTimeout(r, 2000));
    window.__benchSetPhase('seek-long');
    return app.current().maxStep;
  }, steps);
  if (reached < steps) return { error: `the run stopped at ${reached} steps, before ${steps}` };
  const seek = await traced(browser, page, async () => {
    // A warm-up seek (untimed): the first seek after a long advance also
    // pays for Go's garbage collector catching up.
    await seekAll(page, [reached - 10]);
    const seeks = await seekAll(page, [Math.floor(reached / 2), 0, reached, reached - 1, reached - 2, Math.floor(reached / 3), Math.floor((reached * 2) / 3)]);
    // "Any step": the targets above sit at checkpoints or near the end; these
    // are drawn uniformly (a fixed seed), as engine/session's BenchmarkSeek does.
    const random = await seekAll(page, seededSteps(reached, 12));
    await page.waitForTimeout(200);
    return { seeks, random };
  });
  const longestMs = await page.evaluate(() => window.__benchLongest('seek-long'));
  // The same uniformly drawn targets with a second's pause before each, as
  // a person who looks at each step leaves (a phase of their own, outside
  // the trace above): the Worker collects garbage when idle (wasm/idle.go),
  // so a collection cycle no longer falls inside a seek. Back to back, one
  // seek in about fifteen pays for a whole cycle.
  await page.evaluate(() => window.__benchSetPhase('seek-paced'));
  const paced = await seekAll(page, seededSteps(reached, 12), 1000);
  // The slowest seeks the run has: to the last step of each of the 5 gaps
  // between rewind checkpoints (the bridge's "checkpoints", the scratch one
  // included: a seek restores it when it lies before the target) that
  // replay the most trace records, each from the far end of the run after
  // a 1 s pause. Such a seek restores the checkpoint that opens the gap and
  // replays all of it, the most a seek to any step in that gap replays
  // (engine/session's BenchmarkSeekWorst does the same natively).
  // First the page is left alone until the Worker's idle work on the
  // checkpoints ("refine") has nothing more to gain, as a reader's pauses
  // allow (polled once a second; at most a minute).
  await page.evaluate(() => window.__benchSetPhase('seek-worst'));
  const refineWait = await page.evaluate(async (reached) => {
    const app = window.__rolloutlabApp;
    await app.seek(reached);
    const t0 = performance.now();
    for (;;) {
      const st = await app.engineCall('checkpoints');
      if (!st || st.refined || performance.now() - t0 > 60_000) return { ms: performance.now() - t0, refined: !!st?.refined };
      await new Promise((r) => setTimeout(r, 1000));
    }
  }, reached);
  const gaps = await page.evaluate(async (reached) => {
    const app = window.__rolloutlabApp;
    const st = await app.engineCall('checkpoints');
    if (!st) return [];
    const points = st.steps.map((step, i) => ({ step, records: st.records[i] })).sort((a, b) => a.step - b.step);
    const out = [];
    for (let i = 0; i < points.length; i++) {
      const last = i + 1 < points.length ? points[i + 1].step - 1 : reached;
      if (last <= points[i].step) continue;
      // The records written up to the end of step `last`.
      const info = await app.engineCall('steps', { From: last, To: last });
      if (!info || info.length !== 1) continue;
      out.push({ from: points[i].step, last, records: info[0].lastSeq - points[i].records });
    }
    return out.sort((a, b) => b.records - a.records).slice(0, 5);
  }, reached);
  // Each gap end WORST_TRIES times, each from the far end after a 1 s
  // pause: on this shared VM one seek can fall in a slow moment of the
  // machine, and the median of a gap's tries tells a slow step from a slow
  // moment (as BenchmarkSeekWorst's worst-again-ms does natively). Every
  // try is set up alike, so they measure the same thing.
  const worst = [];
  for (const g of gaps) {
    const tries = [];
    for (let i = 0; i < WORST_TRIES; i++) {
      await seekAll(page, [g.last < reached / 2 ? reached : 0]);
      const [x] = await seekAll(page, [g.last], 1000);
      tries.push(x);
    }
    const byMs = [...tries].sort((a, b) => a.ms - b.ms);
    const mid = byMs[Math.floor(byMs.length / 2)];
    worst.push({ ...mid, tries, steps: g.last - g.from, records: g.records });
  }
  return { steps: reached, seeks: seek.result.seeks, random: seek.result.random, paced, worst, refineWait, longestMs, trace: seek.trace };
}

/** Seeks timed to each of the largest gaps' ends (longRunSeeks). */
const WORST_TRIES = 3;

/** n steps in [0, max], uniformly drawn from a fixed seed (a 32-bit LCG), the same every run. */
function seededSteps(max, n) {
  let x = 12345;
  const out = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.push(Math.floor((x / 2 ** 32) * (max + 1)));
  }
  return out;
}

/** The median of xs (NaN when empty). */
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);
/** The p-th percentile of xs (NaN when empty). */
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
/** The largest of xs (NaN when empty). */
const maxOf = (xs) => (xs.length ? Math.max(...xs) : NaN);
/** xs without the values that are not numbers (a Worker time that was not reported is NaN). */
const finite = (xs) => xs.filter((x) => Number.isFinite(x));

/** A Deployment of n replicas (25% surge/unavailable) and nothing else; the
 *  pod limit leaves room for a rollout's surge and terminating pods (up to
 *  1.75 n at once), within the browser's ceiling of 20,000. */
function generatedScenario(n) {
  const maxPods = Math.min(20000, Math.max(10000, 2 * n));
  return `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata:
  name: bench-${n}
  description: generated by scripts/bench-browser.mjs
spec:
  seed: 1
  limits: {maxPods: ${maxPods}}
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

/**
 * Times the rolling update of n replicas to completion in the page's Worker,
 * `runs` times in one page: each run loads the generated scenario, settles
 * it, changes the image and times one "advance" to settle. Per run: the
 * Worker's ms (the engine, the answer's JSON and its split into chunks for
 * the page: engine-worker.ts), the page's ms (call to answer, the parse of
 * its chunks included) and the steps taken. The scenario is the run of
 * engine/sim's BenchmarkRollingUpdate and of wasm's BenchmarkBridgeSettle,
 * step for step (neither pod limit is reached).
 */
async function rolloutTimes(page, n, runs) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    out.push(
      await page.evaluate(async (source) => {
        const app = window.__rolloutlabApp;
        if (!(await app.load(source, 'bench.yaml'))) throw new Error('bench scenario did not load');
        await app.advance('settle');
        await app.act({ type: 'setImage', target: 'deployment/web', image: 'nginx:1.26' });
        // The fetches that follow an action (samples, steps) go first, and
        // the Worker's idle collection after them (it starts 400 ms after its
        // last answer and takes up to about 330 ms; a call waits for it).
        await new Promise((r) => setTimeout(r, 1500));
        const t0 = performance.now();
        const steps = await app.advance('settle');
        return { ms: performance.now() - t0, workerMs: app.workerMs('advance') ?? NaN, steps };
      }, generatedScenario(n)),
    );
  }
  return out;
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
      const worker = [];
      for (let i = 0; i < maxSteps; i++) {
        const ms = await app.benchStep();
        if (ms < 0) break;
        times.push(ms);
        worker.push(app.workerMs('advance') ?? NaN);
      }
      return { times, worker };
    },
    { source: generatedScenario(n), maxSteps },
  );
}
const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;

const pad = (n) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a').padStart(4);
/** n with d decimals, or "n/a". */
const dec = (n, d) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
/** "cpu X ms (wall Y ms)" of a trace's longest main-thread task. */
const cpuOf = (tr) =>
  !tr ? 'not traced' : Number.isFinite(tr.cpuMs) ? `main-thread CPU ${tr.cpuMs.toFixed(0)} ms (that task's wall time ${tr.cpuTaskWallMs.toFixed(0)} ms)` : `main-thread CPU n/a (the trace has no thread times; longest task's wall time ${tr.wallMs.toFixed(0)} ms)`;
/** median / max of seeks' totals and the Worker's share. */
function seekStats(seeks) {
  const ms = seeks.map((x) => x.ms);
  // The Worker's share, of the seeks whose Worker time was reported.
  const known = seeks.filter((x) => Number.isFinite(x.workerMs));
  const worker = known.map((x) => x.workerMs);
  const page = known.map((x) => x.ms - x.workerMs);
  // The page's part: the answer's trip and parse, then the wait for the frame and its render.
  const trip = known.map((x) => x.callMs - x.workerMs);
  const frame = seeks.map((x) => x.ms - x.callMs);
  return { median: median(ms), max: maxOf(ms), workerMedian: median(worker), workerMax: maxOf(worker), pageMedian: median(page), pageMax: maxOf(page), tripMedian: median(trip), frameMedian: median(frame) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const runs = [];
  let repeats = [];
  const steps = {};
  /** Per step, the Worker's time for the "advance" call (engine step, view, JSON). */
  const stepsWorker = {};
  let big = null;
  /** Per replica count, the rollouts' times in the Worker (rolloutTimes). */
  const rollouts = {};
  try {
    if (opts.only.has('loads')) {
      for (let i = 0; i < opts.runs; i++) runs.push(await measure(browser, server.url));
      repeats = await measureRepeat(browser, server.url, opts.runs);
    }
    if (opts.only.has('steps')) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForSelector('body[data-app="ready"]', { timeout: READY_TIMEOUT_MS });
      for (const n of [100, 1000]) {
        const r = await stepTimes(page, n, opts.maxSteps);
        steps[n] = r.times;
        stepsWorker[n] = r.worker;
      }
      await context.close();
    }
    if (opts.only.has('rollouts')) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForSelector('body[data-app="ready"]', { timeout: READY_TIMEOUT_MS });
      for (const n of [1000, 10000]) rollouts[n] = await rolloutTimes(page, n, opts.rolloutRuns);
      await context.close();
    }
    if (opts.only.has('big')) {
      const bigContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const bigPage = await bigContext.newPage();
      await bigPage.goto(server.url);
      await bigPage.waitForSelector('body[data-app="ready"]', { timeout: READY_TIMEOUT_MS });
      try {
        big = await responsiveness(browser, bigPage, 10000, opts.playSeconds, opts.seekSteps);
      } catch (e) {
        big = { error: e instanceof Error ? e.message : String(e) };
      }
      await bigContext.close();
    }
  } finally {
    await browser.close();
    server.stop();
  }
  const summary = {};
  const labels = {
    firstContentMs: 'navigation → first content   ',
    firstStepMs: 'navigation → first step      ',
    engineReadyMs: 'navigation → engine ready    ',
    firstLiveStepMs: 'navigation → first live step ',
  };
  if (runs.length) {
    console.log(`bench-browser: ${opts.runs} cold loads of ${server.url} (loopback, no throttling)`);
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
  }
  for (const [n, xs] of Object.entries(steps)) {
    // The Worker's share, of the steps whose Worker time was reported.
    const w = finite(stepsWorker[n]);
    const page = finite(xs.map((x, i) => x - stepsWorker[n][i]));
    summary[`step${n}`] = { steps: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: maxOf(xs), workerP50: percentile(w, 50), workerP95: percentile(w, 95), pageP50: percentile(page, 50), pageP95: percentile(page, 95) };
    const s = summary[`step${n}`];
    console.log(`bench-browser: step (engine + render + layout), ${String(n).padStart(4)} replicas: ${s.steps} steps  p50 ${dec(s.p50, 2)} ms  p95 ${dec(s.p95, 2)} ms  max ${dec(s.max, 1)} ms; engine in its Worker p50 ${dec(s.workerP50, 2)} ms  p95 ${dec(s.workerP95, 2)} ms; page p50 ${dec(s.pageP50, 2)} ms  p95 ${dec(s.pageP95, 2)} ms`);
  }
  for (const [n, rs] of Object.entries(rollouts)) {
    const later = rs.slice(1);
    const s = { runs: rs.length, workerMedian: median(later.map((r) => r.workerMs)), pageMedian: median(later.map((r) => r.ms)), firstWorkerMs: rs[0].workerMs, steps: rs[0].steps };
    summary[`rollout${n}`] = s;
    console.log(`bench-browser: rollout in the page's Worker, ${String(n).padStart(5)} replicas (${s.steps} steps): median of runs 2-${rs.length} ${pad(s.workerMedian)} ms in the Worker (engine, JSON and the answer's split), ${pad(s.pageMedian)} ms from the page; first run ${pad(s.firstWorkerMs)} ms; each (Worker ms): ${rs.map((r) => r.workerMs.toFixed(0)).join(', ')}`);
  }
  if (big && !big.error) {
    summary.responsiveness10k = big;
    console.log(`bench-browser: main thread, 10000 replicas: longest task while playing ${big.longestPlayMs.toFixed(0)} ms (${big.played} steps in ${opts.playSeconds} s), while seeking ${big.longestSeekMs.toFixed(0)} ms (seeks ${big.seeks.map((x) => `${x.target}:${x.ms.toFixed(0)}ms`).join(' ')}); loading it ${big.longestLoadMs.toFixed(0)} ms`);
    console.log(`bench-browser: main thread, 10000 replicas, longest task by CPU: playing ${cpuOf(big.playTrace)}; seeking ${cpuOf(big.seekTrace)}`);
    const st = seekStats(big.seeks);
    console.log(`bench-browser: seek, ${big.maxStep}-step run (10000 replicas): median ${pad(st.median)} ms  max ${pad(st.max)} ms; engine in its Worker median ${pad(st.workerMedian)} ms  max ${pad(st.workerMax)} ms; page (messages, parse, render) median ${pad(st.pageMedian)} ms  max ${pad(st.pageMax)} ms (answer's trip and parse median ${dec(st.tripMedian, 1)} ms, then to the frame that shows it ${dec(st.frameMedian, 1)} ms)`);
    const lr = big.longRun;
    if (lr && !lr.error) {
      const l = seekStats(lr.seeks);
      summary.seekLongRun = { steps: lr.steps, ...l, longestTaskMs: lr.longestMs, trace: lr.trace };
      console.log(`bench-browser: seek, ${lr.steps}-step run (10000 replicas): median ${pad(l.median)} ms  max ${pad(l.max)} ms; engine in its Worker median ${pad(l.workerMedian)} ms  max ${pad(l.workerMax)} ms; page median ${pad(l.pageMedian)} ms  max ${pad(l.pageMax)} ms (trip and parse ${dec(l.tripMedian, 1)} ms, to the frame ${dec(l.frameMedian, 1)} ms); longest task ${lr.longestMs.toFixed(0)} ms, ${cpuOf(lr.trace)}`);
      console.log(`bench-browser: seek, ${lr.steps}-step run, each (total/worker ms): ${lr.seeks.map((x) => `${x.target}:${x.ms.toFixed(0)}/${dec(x.workerMs, 0)}`).join(' ')}`);
      const r = seekStats(lr.random);
      summary.seekLongRunRandom = { steps: lr.steps, ...r };
      console.log(`bench-browser: seek, ${lr.steps}-step run, ${lr.random.length} uniformly drawn steps: median ${pad(r.median)} ms  max ${pad(r.max)} ms; engine in its Worker median ${pad(r.workerMedian)} ms  max ${pad(r.workerMax)} ms; each (total/worker ms): ${lr.random.map((x) => `${x.target}:${x.ms.toFixed(0)}/${dec(x.workerMs, 0)}`).join(' ')}`);
      const pc = seekStats(lr.paced);
      summary.seekLongRunPaced = { steps: lr.steps, ...pc };
      console.log(`bench-browser: seek, ${lr.steps}-step run, the same ${lr.paced.length} steps with a 1 s pause before each: median ${pad(pc.median)} ms  max ${pad(pc.max)} ms; engine in its Worker median ${pad(pc.workerMedian)} ms  max ${pad(pc.workerMax)} ms; each (total/worker ms): ${lr.paced.map((x) => `${x.target}:${x.ms.toFixed(0)}/${dec(x.workerMs, 0)}`).join(' ')}${idleOf(lr.paced)}`);
      // wc: each gap's median try (its max: the slowest gap's median; a
      // summary's seekLongRunWorst.max was the slowest single seek before
      // WORST_TRIES, now maxOfTries); all: every try.
      const wc = seekStats(lr.worst);
      const all = seekStats(lr.worst.flatMap((x) => x.tries));
      summary.seekLongRunWorst = { steps: lr.steps, ...wc, maxOfTries: all.max, workerMaxOfTries: all.workerMax, gaps: lr.worst };
      console.log(`bench-browser: seek, ${lr.steps}-step run, to the end of the ${lr.worst.length} largest gaps between checkpoints (the slowest seeks; idle refinement ${lr.refineWait.refined ? 'done' : 'not done'} after ${(lr.refineWait.ms / 1000).toFixed(1)} s), ${WORST_TRIES} times each, a 1 s pause before each: slowest gap's median ${pad(wc.max)} ms, slowest seek ${pad(all.max)} ms; engine in its Worker: in those median tries up to ${pad(wc.workerMax)} ms, in any try up to ${pad(all.workerMax)} ms; each gap's median try (total/worker/answer-received ms, gap steps/records; all tries' totals): ${lr.worst.map((x) => `${x.target}:${x.ms.toFixed(0)}/${dec(x.workerMs, 0)}/${x.callMs.toFixed(0)} (${x.steps}/${x.records}; ${x.tries.map((t) => t.ms.toFixed(0)).join(',')})`).join(' ')}${idleOf(lr.worst.flatMap((x) => x.tries))}`);
    } else if (lr) {
      console.log(`bench-browser: seek, long run: not measured: ${lr.error}`);
    }
  } else if (opts.only.has('big')) {
    console.log(`bench-browser: main thread, 10000 replicas: not measured: ${big?.error}`);
  }
  if (opts.json) {
    await mkdir(dirname(opts.json), { recursive: true });
    await writeFile(opts.json, JSON.stringify({ runs, repeats, summary, steps, stepsWorker, rollouts, responsiveness10k: big }, null, 2));
  }
}

await main();
