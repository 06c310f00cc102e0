// Pasting what a cluster prints: a `kubectl get deploy,rs,pods -o yaml` List
// of a rollout stuck at 5 of 10 new pods (namespace shop, 2 ReplicaSets,
// 8 ready old pods, 5 unready new ones). At step 0 the panels show the
// pasted numbers, the notices say how the cluster output was taken, and the
// controller's next decision is upstream's: no room to surge (13 = 10 + 3).
import { expect, type Page, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deletionRankings, pasteAndLoad, rankingTable, scrubTo, webDeployment, whatIf } from './editor';

const shot = (name: string) => fileURLToPath(new URL(`../../test-artifacts/input-${name}.png`, import.meta.url));
const live = readFileSync(fileURLToPath(new URL('../../engine/scenario/testdata/live/stuck-rollout.yaml', import.meta.url)), 'utf8');

/** Opens the app at size and pastes text into the editor (loading it). */
async function openAndPaste(page: Page, size: { width: number; height: number }, text: string): Promise<void> {
  await page.setViewportSize(size);
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await pasteAndLoad(page, text);
}

test('pasted kubectl get -o yaml List: step 0 shows the cluster as it was', async ({ page }) => {
  test.setTimeout(90_000);
  await openAndPaste(page, { width: 1280, height: 900 }, live);

  await expect(page.locator('#load-status')).toContainText('Loaded web');
  await expect(page.locator('#load-errors li[data-code="live"]').first()).toContainText('cluster output is the initial state');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  const deploy = page.locator('.deploy[data-name="web"] .deploy-meta');
  await expect(deploy).toContainText('status: total 13, updated 5, ready 8, available 8');
  await expect(page.locator('.rs .rs-counts[data-desired="8"]')).toHaveCount(1);
  await expect(page.locator('.rs .rs-counts[data-desired="5"]')).toHaveCount(1);
  await page.screenshot({ path: shot('live-step0'), fullPage: true });

  // Sync until the deployment controller has decided: the new RS stays at 5.
  const math = page.locator('#math .math-block[data-type="ReconcileNewMath"]');
  for (let i = 0; i < 5 && (await math.count()) === 0; i++) {
    await page.locator('#sync-btn').click();
    await page.waitForTimeout(300);
  }
  await expect(math).toContainText('13');
  await page.screenshot({ path: shot('live-decision'), fullPage: true });
});

const deploymentOnly = readFileSync(fileURLToPath(new URL('../../engine/scenario/testdata/live/deployment-only.yaml', import.meta.url)), 'utf8');

// What an SRE pastes most: `kubectl get deployment -o yaml` alone. The
// status is taken as the running ReplicaSet and its pods (a notice says
// so), and "what if, instead?" with a new image rolls out from them.
test('pasted kubectl get deployment -o yaml alone: the cluster runs as its status says, and a new image rolls out from it', async ({ page }) => {
  test.setTimeout(90_000);
  await openAndPaste(page, { width: 1280, height: 720 }, deploymentOnly);

  await expect(page.locator('#load-status')).toContainText('Loaded checkout');
  await expect(page.locator('#load-errors li[data-code="live"]').filter({ hasText: 'is taken as ReplicaSet checkout-' })).toContainText('6 running, ready pods');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  const rs = page.locator('.deploy[data-name="checkout"] .rs');
  await expect(rs).toHaveCount(1);
  await expect(rs.locator('.rs-counts')).toContainText('desired 6 · current 6 · ready 6 · available 6');
  await expect(rs.locator('.pod.available')).toHaveCount(6);
  await expect(rs).toBeInViewport();
  // At projector height the notices scroll inside their own few lines, so
  // the cluster, pods included, is in view whole under them (with the
  // notices' full height it was cut at the window's bottom edge).
  const notices = page.locator('#load-errors');
  await expect(notices.locator('li[data-code]')).toHaveCount(4);
  expect(await notices.evaluate((el) => el.scrollHeight > el.clientHeight + 20 && el.clientHeight < 120)).toBe(true);
  await expect(rs.locator('.pod').last()).toBeInViewport({ ratio: 1 });
  await expect(page.locator('#panel-cluster .deploy[data-name="checkout"]')).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: shot('deployment-only-step0') });

  const room = page.locator('#whatif-room');
  await room.locator('.whatif-form-pick').selectOption('setImage');
  const form = room.locator('form[data-form="setImage"]');
  await form.locator('input[name="image"]').fill('ghcr.io/acme/checkout:2.4.0');
  await form.locator('button[data-mode="fork"]').click();
  const compare = room.locator('.whatif-compare');
  await expect(compare).toBeVisible();
  const row = (label: string) => compare.locator('table.whatif-summary tr', { has: page.locator(`th:text-is("${label}")`) });
  // A keeps its six pods; B replaces them, 8 at most (6 + 25% rounded up)
  // and 5 available at least (6 - 25% rounded down).
  await expect(row('Pods created').locator('td')).toHaveText(['0', '6']);
  await expect(row('Peak pods (surge over desired)').locator('td')).toHaveText(['6 (+0)', '8 (+2)']);
  await expect(row('Minimum available').locator('td')).toHaveText(['6', '5']);
  await compare.locator('.whatif-chart').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: shot('deployment-only-whatif') });
});

// The SRE's two futures of one rollout: the new image applied now (A, with
// the Deployment's maxSurge 25%), and the same image with maxSurge 100% (B).
// The fork's change replaces what was done at its step unless the room's
// "first does what I did at this step too" is ticked; the room names that
// action, and after the fork says which way B went. Before this option, B
// silently lost the image and "compared" a rollout with no rollout.
test('two futures of one rollout: a new image applied now, and what if maxSurge were 100% on top of it', async ({ page }) => {
  test.setTimeout(90_000);
  await openAndPaste(page, { width: 1280, height: 720 }, deploymentOnly);
  await expect(page.locator('#load-status')).toContainText('Loaded checkout');

  const room = page.locator('#whatif-room');
  const keepAt = room.locator('.whatif-keep-at-label');
  await expect(keepAt).toBeHidden();
  const image = await whatIf(page, 'setImage', { image: 'ghcr.io/acme/checkout:2.4.0' }, 'apply');
  await expect(image.locator('.form-message')).toContainText('image updated');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  // The room names the action made at this step and offers to keep it.
  await expect(keepAt).toBeVisible();
  await expect(keepAt).toContainText('set image deployment/checkout checkout=ghcr.io/acme/checkout:2.4.0 -n payments');
  await expect(keepAt.locator('input')).not.toBeChecked();

  await keepAt.locator('input').check();
  const surge = await whatIf(page, 'setRollingUpdate', { maxSurge: '100%' }, 'fork');
  await expect(surge.locator('.form-message')).toContainText('B first does what you did at step 0 (set image deployment/checkout');
  const compare = room.locator('.whatif-compare');
  const row = (label: string) => compare.locator('table.whatif-summary tr', { has: page.locator(`th:text-is("${label}")`) });
  // Both roll the six pods out. A's ReplicaSets may total 6 + 25% of 6 = 8
  // (rounded up), B's 6 + 100% = 12, which its first sync reaches: it
  // creates the new ReplicaSet at 6 and cuts the old one by 1. B's pods
  // peak at 11, not 12: the old ReplicaSet, queued first, deletes its pod
  // before the new one creates six.
  await expect(row('Pods created').locator('td')).toHaveText(['6', '6']);
  await expect(row('Peak ReplicaSet total (bounded by maxSurge)').locator('td')).toHaveText(['8', '12']);
  await expect(row('Peak pods (surge over desired)').locator('td')).toHaveText(['8 (+2)', '11 (+5)']);
  await expect(row('Final state').locator('td')).toHaveText([/ghcr\.io\/acme\/checkout:2\.4\.0/, /ghcr\.io\/acme\/checkout:2\.4\.0/]);
  await expect(compare.locator('.whatif-legend .run-key').nth(1)).toContainText('maxSurge=100% · setRollingUpdate payments/deployment/checkout (+ set image deployment/checkout checkout=ghcr.io/acme/checkout:2.4.0 -n payments)');
  // Same end, so the faster rollout is marked: B's 12s against A's 24s.
  await expect(row('Time to complete (from the fork)').locator('td.best')).toHaveText('12s');
  await expect(compare.locator('.whatif-unranked')).toHaveCount(0);
  await room.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: shot('two-futures-of-one-rollout') });

  // Unticked, the change replaces the image: B rolls nothing out, and says so.
  await compare.getByRole('button', { name: 'Close comparison' }).click();
  await keepAt.locator('input').uncheck();
  await surge.locator('button[data-mode="fork"]').click();
  await expect(surge.locator('.form-message')).toContainText('B does this change instead of what you did at step 0 (set image deployment/checkout');
  await expect(row('Pods created').locator('td')).toHaveText(['6', '0']);
  await expect(row('Final state').locator('td')).toHaveText([/checkout:2\.4\.0/, /checkout:2\.3\.1/]);
  // Different ends: B's "0s" is no faster rollout, and nothing is marked.
  await expect(compare.locator('td.best')).toHaveCount(0);
  await expect(compare.locator('.whatif-unranked')).toContainText('The runs end in different states');

  // A step without actions of the user's: nothing to keep, nothing offered.
  // A tick is for the actions it named: back at step 0 it is offered again, unticked.
  await keepAt.locator('input').check();
  await page.locator('#step-btn').click();
  await expect(page.locator('#step-label')).toHaveText(/^step 1 \//);
  await expect(keepAt).toBeHidden();
  await page.locator('#back-btn').click();
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  await expect(keepAt).toBeVisible();
  await expect(keepAt.locator('input')).not.toBeChecked();
});

test('a pasted Deployment whose pods must not share a node: the surge pod waits unscheduled, the cluster view says why, and the rules not simulated are named', async ({ page }) => {
  await openAndPaste(
    page,
    { width: 1280, height: 720 },
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 3
  progressDeadlineSeconds: 60
  selector: {matchLabels: {app: api}}
  strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: api}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: api}}, topologyKey: kubernetes.io/hostname}
      nodeSelector: {disktype: ssd}
      containers: [{name: api, image: api:1}]
`,
  );
  await expect(page.locator('#load-status')).toContainText('Loaded api');
  // The anti-affinity rule is simulated; the nodeSelector is not, and says so at its line.
  const notice = page.locator('#load-errors li[data-code="scheduling"]');
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('line 16');
  await expect(notice).toContainText('Deployment/api: spec.template.spec.nodeSelector: not simulated');
  await page.locator('#settle-btn').click();
  await expect(page.locator('.deploy[data-name="api"] .deploy-meta')).toContainText('available 3');
  // The new image: one surge pod, and no node it may go to.
  await whatIf(page, 'setImage', { image: 'api:2' }, 'apply');
  await page.locator('#settle-btn').click();
  await expect(page.locator('.deploy[data-name="api"] .deploy-meta')).toContainText('Progressing False ProgressDeadlineExceeded');
  const waiting = page.locator('.rs[data-age="new"] .rs-unschedulable');
  // The scheduler's reasons in the line, its preemption part in the title.
  await expect(waiting).toHaveText("1 pod not scheduled: 0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");
  await expect(waiting).toHaveAttribute('title', /preemption: 0\/3 nodes are available: 3 No preemption victims found for incoming pod\.$/);
  // Back at the cluster view (the What if? room is below it): the reason is in view, not in the pod table.
  await page.locator('#panel-cluster').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await expect(waiting).toBeInViewport();
  await expect(page.locator('.rs[data-age="old"] .rs-unschedulable')).toBeHidden();
  await page.screenshot({ path: shot('anti-affinity-stall') });
});

// A Deployment of 200 replicas lists more pods than the view carries (150):
// its ReplicaSets are drawn from their status counts, on a canvas each
// (player/squares.ts), with the squares' CSS: their size, colours and the
// terminating outline, which follows the theme.
test('a large pasted run: squares painted from the ReplicaSets\' counts, as the CSS draws a square, in either theme', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    // (This test's own pixel reads draw Chromium's advice on readbacks.)
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().startsWith('Canvas2D: Multiple readback')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  // Errors the page reports only as events (a ResizeObserver loop among them).
  await page.addInitScript(() => {
    (window as unknown as { errorEvents: string[] }).errorEvents = [];
    window.addEventListener('error', (e) => (window as unknown as { errorEvents: string[] }).errorEvents.push(e.message));
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await openAndPaste(
    page,
    { width: 1280, height: 720 },
    webDeployment('shop', 200),
  );
  await expect(page.locator('#load-status')).toContainText('Loaded');
  // Early on, every pod is listed: one element each, no canvas.
  const pods = page.locator('#cluster .rs .pods');
  const listed = pods.locator('.pod:not(.square-probe)');
  await expect
    .poll(async () => {
      await page.locator('#sync-btn').click();
      return listed.count();
    })
    .toBeGreaterThan(0);
  await expect(listed.first()).toBeVisible();
  await expect(pods.locator('canvas')).toHaveCount(0);
  const early = await page.evaluate(() => window.__rolloutlabApp!.current()!.step);
  await page.locator('#settle-btn').click();
  const counted = page.locator('#cluster .rs .pods[data-counted]');
  await expect(counted).toHaveCount(1);
  await expect(counted).toHaveAttribute('title', '200 available, 0 ready, 0 not ready, 0 terminating (counted from the ReplicaSet status)');
  await expect(counted.locator('.pod:not(.square-probe)')).toHaveCount(0);
  await expect(counted.locator('canvas.pods-canvas')).toBeVisible();

  /**
   * The canvas of the pods box i, measured against its hidden square: the
   * square's size, the gap, the rows the title's counts take and the
   * canvas's height; and, for square n, the pixel at its centre and the
   * most opaque one along its top edge's inner line (rgba).
   */
  const canvasAt = (i: number, n = 0) =>
    page.evaluate(
      ({ i, n }) => {
        const box = document.querySelectorAll<HTMLElement>('#cluster .rs .pods[data-counted]')[i]!;
        const canvas = box.querySelector('canvas')!;
        const size = box.querySelector<HTMLElement>('.square-probe')!.getBoundingClientRect().width;
        const gap = parseFloat(getComputedStyle(box).columnGap);
        const perRow = Math.floor((box.getBoundingClientRect().width + gap) / (size + gap));
        const counts = [...box.getAttribute('title')!.matchAll(/(\d+) /g)].slice(0, 4).reduce((a, m) => a + Number(m[1]), 0);
        const dpr = window.devicePixelRatio;
        const ctx = canvas.getContext('2d')!;
        const at = (x: number, y: number) => Array.from(ctx.getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data);
        const x = (n % perRow) * (size + gap);
        const y = Math.floor(n / perRow) * (size + gap);
        // The outline is dashed and may fall between pixels: its most opaque one.
        let edge: number[] = [0, 0, 0, 0];
        for (let dx = 1; dx < size - 1; dx++) for (const dy of [0.5, 1, 1.5]) {
          const p = at(x + dx, y + dy);
          if (p[3]! > edge[3]!) edge = p;
        }
        return { size, gap, rows: Math.ceil(Math.min(counts, 240) / perRow), cssHeight: canvas.getBoundingClientRect().height, centre: at(x + size / 2, y + size / 2), edge };
      },
      { i, n },
    );
  const first = await canvasAt(0);
  expect(first.size).toBeGreaterThan(10);
  expect(first.cssHeight).toBeCloseTo(first.rows * first.size + (first.rows - 1) * first.gap, 0);
  /** Whether an rgb is the colour given (its alpha makes the canvas round the channels a little). */
  const near = (rgb: number[], hex: string) => [1, 3, 5].every((k, c) => Math.abs(rgb[c]! - parseInt(hex.slice(k, k + 2), 16)) <= 4);
  // The available colour (--ok, #1a7f37), opaque, at the first and the last square.
  expect((await canvasAt(0, 0)).centre).toEqual([0x1a, 0x7f, 0x37, 255]);
  expect((await canvasAt(0, 199)).centre).toEqual([0x1a, 0x7f, 0x37, 255]);

  // Roll out a new image, and find a step where the old ReplicaSet has pods terminating.
  await whatIf(page, 'setImage', { image: 'nginx:1.26' }, 'apply');
  await page.locator('#settle-btn').click();
  await expect(page.locator('#cluster .rs')).toHaveCount(2);
  const at = await page.evaluate(async () => {
    const app = window.__rolloutlabApp!;
    const end = app.current()!.maxStep;
    for (let s = end; s > 0; s -= 25) {
      await app.seek(s);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const old = document.querySelectorAll<HTMLElement>('#cluster .rs .pods[data-counted]')[1];
      const m = old?.getAttribute('title')?.match(/^(\d+) available, (\d+) ready, (\d+) not ready, (\d+) terminating/);
      if (m && Number(m[1]) > 0 && Number(m[4]) > 0 && Number(m[1]) + Number(m[2]) + Number(m[3]) + Number(m[4]) <= 240) return { step: s, available: Number(m[1]), ready: Number(m[2]), pending: Number(m[3]), terminating: Number(m[4]) };
    }
    return null;
  });
  expect(at, 'a step with the old ReplicaSet terminating pods').not.toBeNull();
  const terminatingSquare = at!.available + at!.ready + at!.pending; // the first terminating one
  const light = await canvasAt(1, terminatingSquare);
  // Hollow, with a dashed outline of --danger (#cf222e in the light theme) at 0.7 opacity.
  expect(light.centre[3]).toBe(0);
  expect(near(light.edge, '#cf222e'), `outline ${light.edge}`).toBe(true);
  expect(light.edge[3]).toBeGreaterThan(150);
  expect(light.edge[3]).toBeLessThan(200);
  await page.screenshot({ path: shot('squares-light') });

  // The dark theme: the outline takes its --danger (#f85149).
  await page.locator('#theme-btn').click();
  while ((await page.locator('html').getAttribute('data-theme')) !== 'dark') await page.locator('#theme-btn').click();
  await expect.poll(async () => near((await canvasAt(1, terminatingSquare)).edge, '#f85149')).toBe(true);
  await page.screenshot({ path: shot('squares-dark') });

  // Another language rebuilds the cluster view: its canvases are given back
  // and taken again, and painted.
  await page.locator('#lang-picker').selectOption('zh-CN');
  await expect(counted.first()).toHaveAttribute('title', /^\d+ 个可用/);
  await expect(page.locator('#cluster .rs .pods[data-counted] canvas')).toHaveCount(2);
  await expect.poll(async () => near((await canvasAt(1, terminatingSquare)).edge, '#f85149')).toBe(true);
  await expect.poll(async () => near((await canvasAt(1, 0)).centre, '#1a7f37')).toBe(true);
  await page.locator('#lang-picker').selectOption('en');

  // Back to the start of the run: every pod listed again, one element each.
  await page.evaluate((s) => window.__rolloutlabApp!.seek(s), early);
  await expect(pods.locator('canvas')).toHaveCount(0);
  await expect(listed.first()).toBeVisible();
  expect(problems).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { errorEvents: string[] }).errorEvents)).toEqual([]);
});

test('pasted cluster output scaled down: the ranking keeps the rule deciding in view beside a cloud\'s node names', async ({ page }) => {
  test.setTimeout(90_000);
  await openAndPaste(page, { width: 1280, height: 720 }, live);
  await expect(page.locator('#load-status')).toContainText('Loaded web');
  await whatIf(page, 'scale', { replicas: '2' }, 'apply');
  await page.evaluate(() => window.__rolloutlabApp!.advance('settle'));
  const ranking = (await deletionRankings(page)).find((r) => r.sorted && r.pods.length > 1);
  expect(ranking).toBeDefined();
  const first = ranking!.pods[0]!;
  // The nodes of `kubectl get -o yaml` output from EKS: ip-10-0-1-17.eu-west-1.compute.internal.
  expect(first.node).toMatch(/^ip-[\d-]+\.eu-west-1\.compute\.internal$/);
  await scrubTo(page, ranking!.step);
  const { table, fit } = await rankingTable(page);
  await expect(table.locator('thead th')).toHaveText(['pod', 'victim', 'decided by', 'node', 'phase', 'ready', 'restarts']);
  const cells = table.locator('tbody tr').first().locator('td');
  await expect(cells.nth(2)).toHaveText(first.decidedBy);
  await expect(cells.nth(3)).toHaveText(first.node);
  // The table is wider than the panel and scrolls on its own; the rule deciding is in view without scrolling, and each row is one line.
  expect(fit.overflow).toBeGreaterThan(0);
  expect(fit.decidedInView).toBe(true);
  expect(fit.tallest).toBeLessThan(fit.shortest * 1.2);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shot('live-ranking') });
});
