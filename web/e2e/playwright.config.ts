// End-to-end tests against the built app (make build), served by the real
// CLI exactly as `make run` does, in Debian's Chromium (never a downloaded
// browser).
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 18080);
const baseURL = `http://127.0.0.1:${port}/`;
// E2E_SERVER and E2E_DIST let a run use a build made elsewhere (e.g. while
// another build rewrites bin/ and web/dist).
const server = process.env.E2E_SERVER ?? 'bin/rolloutlab';
const dist = process.env.E2E_DIST ?? 'web/dist';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: `${repoRoot}test-artifacts/playwright`,
  timeout: 60_000,
  expect: { timeout: 30_000 },
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  reporter: 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `${server} serve --addr 127.0.0.1:${port} --dir ${dist}`,
    cwd: repoRoot,
    url: baseURL,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'pipe',
  },
});
