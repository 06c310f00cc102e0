// WebKit smoke test: the built app in WebKitGTK (the engine of Safari),
// driven through WebKitWebDriver's W3C WebDriver API under Xvfb (Debian
// packages webkit2gtk-driver and xvfb; Playwright's own WebKit build cannot
// be downloaded here). It checks that the page loads, the engine becomes
// ready, stepping by sync moves the simulation and fills the math panel, and
// no error banner or uncaught error appears.
//
// Usage: node web/e2e/webkit-smoke.mjs   (after `make build`)
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

const MINIBROWSER = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      await fetch(url);
      return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** wd sends one W3C WebDriver command and returns its value. */
async function wd(base, method, path, body) {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${json.value?.error}: ${json.value?.message}`);
  return json.value;
}

let passed = 0;
let failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else failed++;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'}  ${what}`);
}

const children = [];
let session;
let base;
try {
  const display = `:${90 + Math.floor(Math.random() * 9)}`;
  children.push(spawn('Xvfb', [display, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' }));
  const appPort = await freePort();
  const app = `http://127.0.0.1:${appPort}/`;
  children.push(spawn('bin/rolloutlab', ['serve', '--addr', `127.0.0.1:${appPort}`, '--dir', 'web/dist'], { stdio: 'ignore' }));
  const wdPort = await freePort();
  base = `http://127.0.0.1:${wdPort}`;
  children.push(spawn('WebKitWebDriver', [`--port=${wdPort}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: display } }));
  await waitFor(app, 10_000);
  await waitFor(base + '/status', 10_000);
  const s = await wd(base, 'POST', '/session', {
    capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } },
  });
  session = `/session/${s.sessionId}`;
  const run = (script, args = []) => wd(base, 'POST', `${session}/execute/sync`, { script, args });
  await wd(base, 'POST', `${session}/url`, { url: app });
  // Uncaught errors after this point are collected by the page itself.
  await run('window.__errors = []; window.addEventListener("error", (e) => window.__errors.push(String(e.message)));');
  check((await run('return !!document.querySelector("#step-label")')) === true, 'the page shell renders');
  let ready = false;
  for (let i = 0; i < 600 && !ready; i++) {
    ready = (await run('return document.body.dataset.app')) === 'ready';
    if (!ready) await sleep(100);
  }
  check(ready, 'the engine becomes ready');
  const stepOf = async () => Number(((await run('return document.querySelector("#step-label").textContent')) ?? '').match(/^step (\d+)/)?.[1] ?? -1);
  check((await stepOf()) === 0, 'the default scenario is loaded at step 0');
  for (let i = 0; i < 5; i++) {
    const before = await stepOf();
    await run('document.querySelector("#sync-btn").click()');
    for (let j = 0; j < 300 && (await stepOf()) === before; j++) await sleep(100);
  }
  const after = await stepOf();
  check(after > 0, `five syncs move the simulation (step ${after})`);
  const blocks = await run('return document.querySelectorAll("#math .math-block").length');
  check(blocks > 0, `the math panel shows the step's decisions (${blocks} blocks)`);
  const banner = await run('const b = document.querySelector("#banner"); return b && !b.hidden && b.offsetParent !== null ? b.textContent : ""');
  mkdirSync('test-artifacts', { recursive: true });
  writeFileSync('test-artifacts/webkit-smoke.png', Buffer.from(await wd(base, 'GET', `${session}/screenshot`), 'base64'));
  const errors = await run('return window.__errors');
  check(!banner && errors.length === 0, `no error banner or uncaught error${banner ? ': ' + banner : ''}${errors.length ? ': ' + errors.join(' | ') : ''}`);
} catch (e) {
  failed++;
  console.log(`  FAIL  ${e.message}`);
} finally {
  if (session) await wd(base, 'DELETE', session).catch(() => {});
  for (const c of children.reverse()) c.kill();
}
console.log(`webkit-smoke: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
