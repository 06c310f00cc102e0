// /embed.js on another site: a Worker cannot be started from a cross-origin
// script, so each player becomes an iframe of /embed. The "other site" is
// localhost while the app is 127.0.0.1 (both loopback); Chromium's
// local-network access checks, which would otherwise stop a page from
// reaching a loopback address, are switched off for this file only.
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';

test.use({
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
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests',
    ],
  },
});

test('on another site, /embed.js falls back to iframes of /embed', async ({ page, baseURL }) => {
  // A host page on another origin (localhost instead of 127.0.0.1: both
  // loopback, so Chromium's private-network rules stay out of the way),
  // answered by the test, that loads our script.
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.route(`${other}other-site.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Other site</title><p>Intro</p>
        <rollout-lab id="p" scenario="rolling-update-10-3-2" step="3" panels="cluster"></rollout-lab>
        <rollout-lab id="q" scenario="rolling-update-10-3-2" note="3" notes="false" panels="cluster"></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script>`,
    }),
  );
  await page.goto(`${other}other-site.html`);
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(frame.locator('.pl-label')).toContainText('step 3 /');
  // The notes options reach the iframe: the third note's step, the strip hidden.
  const q = page.frameLocator('#q iframe');
  await expect(q.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(q.locator('.pl-label')).toContainText('step 99 /');
  await expect(q.locator('.pl-notes')).toBeHidden();
  expect(await page.evaluate(() => document.activeElement === document.body && window.scrollY === 0)).toBe(true);
});

test('on another site, an iframe player follows the page\'s language and the size its CSS gives it', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.route(`${other}zh-site.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="zh-CN"><title>Other site</title><style>#p { display: block; height: 360px }</style>
        <rollout-lab id="p" scenario="rolling-update-10-3-2" panels="cluster"></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script></html>`,
    }),
  );
  await page.goto(`${other}zh-site.html`);
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  expect(await page.locator('#p iframe').getAttribute('src')).toContain('lang=zh-CN');
  await expect(frame.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const box = (await page.locator('#p').boundingBox())!;
  expect(Math.round(box.height)).toBe(360);
});

test('on another site, a scenario file of that site is fetched by the page for the iframe', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.route(`${other}docs/page.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Docs</title>
        <rollout-lab id="p" scenario="files/mine.yaml" panels="cluster"></rollout-lab>
        <rollout-lab id="q" scenario="files/missing.yaml" panels="cluster"></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script>`,
    }),
  );
  await page.route(`${other}docs/files/mine.yaml`, (r) =>
    r.fulfill({
      contentType: 'text/yaml',
      body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: mine}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: mine}}\n  template:\n    metadata: {labels: {app: mine}}\n    spec: {containers: [{name: c, image: nginx}]}\n',
    }),
  );
  await page.route(`${other}docs/files/missing.yaml`, (r) => r.fulfill({ status: 404, body: 'no' }));
  await page.goto(`${other}docs/page.html`);
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(frame.locator('.pl-title')).toHaveText('mine');
  await expect(page.frameLocator('#q iframe').locator('.pl-status')).toContainText('files/missing.yaml: HTTP 404');
});

test('on another site, an inline-YAML player changed after mounting keeps its YAML', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.route(`${other}inline.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Docs</title>
        <rollout-lab id="p" panels="cluster"><script type="text/yaml">
          apiVersion: apps/v1
          kind: Deployment
          metadata: {name: inline-web}
          spec:
            replicas: 2
            selector: {matchLabels: {app: w}}
            template:
              metadata: {labels: {app: w}}
              spec: {containers: [{name: c, image: nginx}]}
        </script></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script>`,
    }),
  );
  await page.goto(`${other}inline.html`);
  await expect(page.frameLocator('#p iframe').locator('.pl-title')).toHaveText('inline-web');
  // The scenario's text travels in the fragment, not the query.
  const src = (await page.locator('#p iframe').getAttribute('src')) ?? '';
  expect(src.split('#')[0]).not.toContain('source=');
  await page.evaluate(() => document.getElementById('p')!.setAttribute('panels', 'cluster,math'));
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('.pl-panel')).toHaveCount(2);
  await expect(frame.locator('.pl-title')).toHaveText('inline-web');
});

test('on another site, inline YAML indented with tabs loads, survives an async script on a slow page and a page that puts the element\'s HTML back', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  const yaml = (indent: string) =>
    ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: tabbed', 'spec:', '  replicas: 2', '  selector:', '    matchLabels: {app: t}', '  template:', '    metadata:', '      labels: {app: t}', '    spec:', '      containers:', '      - name: c', '        image: nginx:1.25']
      .map((l) => indent + l)
      .join('\n');
  // The async script runs before the element's YAML has been parsed: the
  // parser waits for a slow script inside the element meanwhile.
  await page.route(`${other}slow.js`, async (r) => {
    await new Promise((done) => setTimeout(done, 1500));
    await r.fulfill({ contentType: 'text/javascript', body: 'window.slowRan = true;' });
  });
  await page.route(`${other}slow.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Slow</title><script type="module" async src="${baseURL}embed.js"></script>
        <rollout-lab id="p" panels="cluster"><script src="${other}slow.js"></script><script type="text/yaml">\n${yaml('\t\t')}\n\t</script></rollout-lab><div id="box"></div>`,
    }),
  );
  await page.goto(`${other}slow.html`);
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(frame.locator('.pl-title')).toHaveText('tabbed');
  // A tabs widget saves the element's HTML and puts it back: a new element,
  // which still has its YAML.
  await page.evaluate(() => {
    const box = document.getElementById('box')!;
    const html = document.getElementById('p')!.outerHTML;
    document.getElementById('p')!.remove();
    box.innerHTML = html;
  });
  await expect(page.locator('#p iframe')).toHaveCount(1);
  await expect(page.frameLocator('#p iframe').locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(page.frameLocator('#p iframe').locator('.pl-title')).toHaveText('tabbed');
});

test('on another site, a player that cannot start tells the page: an error event on its element and the console', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  const logged: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && logged.push(m.text())));
  await page.route(`${other}broken.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Docs</title>
        <script>window.errors = []; document.addEventListener('rollout-lab-error', (e) => window.errors.push(e.target.id + ': ' + e.detail.message));</script>
        <rollout-lab id="bad" scenario="rolling-updat" panels="cluster"></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script>`,
    }),
  );
  await page.goto(`${other}broken.html`);
  await expect(page.frameLocator('#bad iframe').locator('.pl-status')).toContainText('There is no built-in scenario "rolling-updat". The built-in ones: ');
  await expect.poll(() => page.evaluate(() => (window as unknown as { errors: string[] }).errors)).toEqual([expect.stringMatching(/^bad: .*"rolling-updat".*rolling-update-10-3-2/)]);
  expect(logged.some((l) => l.startsWith('Rollout Lab player #bad: '))).toBe(true);
});

test('on another site, a player takes the page\'s colours, follows its theme switch, and keeps a theme it was given', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.emulateMedia({ colorScheme: 'light' }); // the system says light; the page is dark
  await page.route(`${other}dark-docs.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html class="dark"><title>Docs</title>
        <style>html.dark body { background: #0d1117; color: #e6edf3 } body { background: #fff }</style>
        <rollout-lab id="follows" scenario="adoption" panels="cluster"></rollout-lab>
        <rollout-lab id="light" scenario="adoption" panels="cluster" theme="light"></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script></html>`,
    }),
  );
  await page.goto(`${other}dark-docs.html`);
  const follows = page.frameLocator('#follows iframe');
  const light = page.frameLocator('#light iframe');
  await expect(follows.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(follows.locator('#player')).toHaveAttribute('data-rl-theme', 'dark');
  await expect(light.locator('#player')).toHaveAttribute('data-rl-theme', 'light');
  const bg = (f: typeof follows) => f.locator('#player').evaluate((el) => getComputedStyle(el).backgroundColor); // the shadow host paints it
  await expect.poll(() => bg(follows)).toBe('rgb(13, 17, 23)');
  await expect.poll(() => bg(light)).toBe('rgb(255, 255, 255)');
  await page.screenshot({ path: fileURLToPath(new URL('../../test-artifacts/embed-dark-docs.png', import.meta.url)) });
  // The docs theme toggle: the page turns light, the player with it; the one given a theme stays.
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await expect(follows.locator('#player')).toHaveAttribute('data-rl-theme', 'light');
  await expect.poll(() => bg(follows)).toBe('rgb(255, 255, 255)');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expect(follows.locator('#player')).toHaveAttribute('data-rl-theme', 'dark');
  await expect(light.locator('#player')).toHaveAttribute('data-rl-theme', 'light');
});
