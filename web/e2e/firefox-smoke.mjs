// Firefox smoke test: the built app in Debian's Firefox ESR, driven through
// WebDriver BiDi by puppeteer-core (Playwright needs its own patched Firefox,
// which cannot be downloaded here). It checks what a person would: the page
// loads, the engine becomes ready, stepping by sync moves the simulation and
// fills the math panel, and nothing is logged as an error.
//
// Usage: node web/e2e/firefox-smoke.mjs   (after `make build`)
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import puppeteer from 'puppeteer-core';

const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';

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

async function waitFor(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

let passed = 0;
let failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else failed++;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'}  ${what}`);
}

const port = await freePort();
const url = `http://127.0.0.1:${port}/`;
const server = spawn('bin/rolloutlab', ['serve', '--addr', `127.0.0.1:${port}`, '--dir', 'web/dist'], { stdio: 'ignore' });
let browser;
try {
  await waitFor(url, 10_000);
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 720 });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('#step-label', { timeout: 10_000 });
  check(true, 'the page shell renders');
  await page.waitForSelector('body[data-app="ready"]', { timeout: 60_000 });
  check(true, 'the engine becomes ready');
  const stepOf = async () => Number(((await page.$eval('#step-label', (e) => e.textContent)) ?? '').match(/^step (\d+)/)?.[1] ?? -1);
  check((await stepOf()) === 0, 'the default scenario is loaded at step 0');
  for (let i = 0; i < 5; i++) {
    const before = await stepOf();
    await page.click('#sync-btn');
    await page.waitForFunction((b) => {
      const m = document.querySelector('#step-label')?.textContent?.match(/^step (\d+)/);
      return m && Number(m[1]) !== b;
    }, { timeout: 30_000 }, before);
  }
  const after = await stepOf();
  check(after > 0, `five syncs move the simulation (step ${after})`);
  const blocks = await page.$$eval('#math .math-block', (els) => els.length);
  check(blocks > 0, `the math panel shows the step's decisions (${blocks} blocks)`);
  mkdirSync('test-artifacts', { recursive: true });
  await page.screenshot({ path: 'test-artifacts/firefox-smoke.png' });
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
} catch (e) {
  failed++;
  console.log(`  FAIL  ${e.message}`);
} finally {
  await browser?.close();
  server.kill();
}
console.log(`firefox-smoke: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
