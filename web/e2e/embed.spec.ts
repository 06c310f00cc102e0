// docs/embed.html: three players on one host page share one wasm download,
// never take the focus and never scroll the host; and the /embed iframe page
// at 800x500.
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { NOTES_EDGE_YAML } from './notes-edge';

const shot = (name: string) => fileURLToPath(new URL(`../../test-artifacts/${name}.png`, import.meta.url));
const PLAYERS = ['first', 'second', 'third'];

test('docs/embed.html: three players, one wasm download, focus and scroll stay with the host', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  const wasmRequests: string[] = [];
  page.on('request', (r) => {
    if (/\.wasm(\?|$)/.test(r.url())) wasmRequests.push(r.url());
  });
  await page.setViewportSize({ width: 1280, height: 1400 }); // the first player's buttons in view: clicking them scrolls nothing
  await page.goto('/docs/embed.html');
  // Record every focus change and scroll of the host page from the start.
  await page.evaluate(() => {
    const w = window as unknown as { __events: string[] };
    w.__events = [];
    document.addEventListener('focusin', (e) => w.__events.push(`focus ${(e.target as Element).tagName}#${(e.target as Element).id}`));
    window.addEventListener('scroll', () => w.__events.push(`scroll ${window.scrollY}`));
  });

  for (const id of PLAYERS) {
    await expect(page.locator(`#${id} .player`)).toHaveAttribute('data-ready', 'true');
  }
  // Each player shows its own scenario at its start step, with the panels it asked for.
  await expect(page.locator('#first .pl-title')).toHaveText('rolling-update-10-3-2');
  await expect(page.locator('#first .pl-label')).toContainText('step 0 /');
  await expect(page.locator('#first .pl-panel')).toHaveCount(3);
  await expect(page.locator('#second .pl-title')).toHaveText('rollback');
  await expect(page.locator('#second .pl-label')).toContainText('step 120 /');
  await expect(page.locator('#second .pl-chart svg[role="img"]')).toBeVisible();
  await expect(page.locator('#second .pl-trace')).toBeVisible();
  await expect(page.locator('#third .pl-title')).toHaveText('inline-scale-up');
  await expect(page.locator('#third .pl-label')).toContainText('step 5 /');
  await expect(page.locator('#third .pl-expectations')).toContainText('api-');
  await expect(page.locator('#third .pl-open')).toBeVisible(); // readonly="false"
  await expect(page.locator('#first .pl-open')).toBeHidden();

  // The players are independent engines: stepping one leaves the others.
  await page.locator('#first .pl-step').click();
  await expect(page.locator('#first .pl-label')).toContainText('step 1 /');
  await expect(page.locator('#second .pl-label')).toContainText('step 120 /');
  await page.locator('#first .pl-step').blur();

  const state = await page.evaluate(() => ({
    active: document.activeElement === document.body ? 'body' : document.activeElement?.tagName,
    scrollY: window.scrollY,
    events: (window as unknown as { __events: string[] }).__events,
  }));
  // Only the click above moved the focus (into the first player).
  expect(state.events.filter((e) => e.startsWith('focus') && !e.includes('ROLLOUT-LAB#first'))).toEqual([]);
  expect(state.events.filter((e) => e.startsWith('scroll'))).toEqual([]);
  expect(state.scrollY).toBe(0);
  expect(wasmRequests).toHaveLength(1);
  // One engine Worker per player, all from that one download; a player taken
  // off the page stops its Worker.
  expect(page.workers()).toHaveLength(3);
  await page.screenshot({ path: shot('embed-docs'), fullPage: true });
  await page.evaluate(() => document.getElementById('third')!.remove());
  await expect.poll(() => page.workers().length).toBe(2);
  expect(problems).toEqual([]);
});

test('a freshly loaded embed page leaves the focus on the body', async ({ page }) => {
  await page.goto('/docs/embed.html');
  for (const id of PLAYERS) await expect(page.locator(`#${id} .player`)).toHaveAttribute('data-ready', 'true');
  expect(await page.evaluate(() => document.activeElement === document.body && window.scrollY === 0)).toBe(true);
  // Keys pressed on the host page do not drive a player.
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#first .pl-label')).toContainText('step 0 /');
  // Once a player has focus, its keys work and do not scroll the host.
  // (focus() itself may scroll the player into view: that is the test's doing.)
  await page.locator('#first .player').focus();
  const before = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#first .pl-label')).toContainText('step 1 /');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#first .pl-label')).toContainText('step 0 /');
  await page.keyboard.press(' ');
  await page.keyboard.press(' ');
  expect(await page.evaluate(() => window.scrollY)).toBe(before);
});

test('/embed in an 800x500 iframe-sized window is compact and honours its options', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto('/embed?scenario=rolling-update-10-3-2&panels=cluster,math,chart&step=12');
  const player = page.locator('#player .player');
  await expect(player).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.pl-label')).toContainText('step 12 /');
  // Everything fits: the document does not scroll.
  expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
  const box = await player.boundingBox();
  expect(box!.height).toBeLessThanOrEqual(500);
  await page.screenshot({ path: shot('embed-800x500') });
});

test('/embed: the math panel names the latest decision after the slider jumps over steps', async ({ page }) => {
  // In the library's rolling-update-10-3-2 run the steps with controller
  // math up to 125 are 2, 5, 37, 39, 41, 43, 44, 46, 67, 88, 90, 94, 95,
  // 99, 110, 113, 117 and 119 (`rolloutlab run library:rolling-update-10-3-2
  // --format json --until step=125`). A jump of the slider passes the
  // steps between unseen; the panel used to fall back to the last step it
  // had shown with math ("No controller decision yet" after 0 -> 60).
  await page.goto('/embed?scenario=rolling-update-10-3-2&panels=math');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  // The run is computed ahead (the slider reaches its end).
  await expect(page.locator('.pl-label')).toContainText('step 0 / 287 ');
  const math = page.locator('div.math');
  const slideTo = async (step: number) => {
    await page.locator('input.pl-scrub').evaluate((s: HTMLInputElement, n) => {
      s.value = String(n);
      s.dispatchEvent(new Event('change'));
    }, step);
    await expect(page.locator('.pl-label')).toContainText(`step ${step} /`);
  };
  await slideTo(60);
  await expect(math).toContainText('No decision in step 60; showing step 46.');
  await slideTo(100);
  await expect(math).toContainText('No decision in step 100; showing step 99.');
  // Back before both: the steps below 46 were never read either.
  await slideTo(40);
  await expect(math).toContainText('No decision in step 40; showing step 39.');
  await slideTo(85);
  await expect(math).toContainText('No decision in step 85; showing step 67.');
});

test('/embed: an unknown scenario is a clear message, not a broken page', async ({ page }) => {
  await page.goto('/embed?scenario=no-such-scenario');
  await expect(page.locator('.pl-status')).toHaveText(/^The player could not start: There is no built-in scenario "no-such-scenario"\. The built-in ones: adoption, .*rolling-update-10-3-2, .*\.$/);
});

test('"Open in Rollout Lab" carries an editable player to the full app at its step', async ({ page, context }) => {
  await page.goto('/docs/embed.html');
  await expect(page.locator('#third .player')).toHaveAttribute('data-ready', 'true');
  const [app] = await Promise.all([context.waitForEvent('page'), page.locator('#third .pl-open').click()]);
  await expect(app.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(app.locator('#banner')).toContainText('Opened a shared simulation at step 5.');
  expect(await app.evaluate(() => window.__rolloutlabApp!.current()!.scenario)).toBe('inline-scale-up');
});

test('/embed: a step past the run\'s end shows the end', async ({ page }) => {
  await page.goto('/embed?scenario=recreate&panels=cluster&step=999999');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  const label = (await page.locator('.pl-label').textContent()) ?? '';
  const m = /step (\d+) \/ (\d+)/.exec(label);
  expect(m, label).not.toBeNull();
  expect(Number(m![1])).toBeGreaterThan(0);
  expect(m![1]).toBe(m![2]);
  await expect(page.locator('.pl-status')).toBeHidden();
});

test('the wheel over an embedded player\'s panel scrolls the docs page', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto('/docs/embed.html');
  await expect(page.locator('#first .player')).toHaveAttribute('data-ready', 'true');
  const panel = page.locator('#first .pl-panel').first();
  await panel.scrollIntoViewIfNeeded();
  const box = (await panel.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const before = await page.evaluate(() => window.scrollY);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 400);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before);
});

test('"Open in Rollout Lab" of a library scenario names it in the app', async ({ page, context }) => {
  await page.route('**/named-embed.html', (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Docs</title><rollout-lab id="p" scenario="rollback" readonly="false" panels="cluster"></rollout-lab><script type="module" src="/embed.js"></script>',
    }),
  );
  await page.goto('/named-embed.html');
  await expect(page.locator('#p .player')).toHaveAttribute('data-ready', 'true');
  const [app] = await Promise.all([context.waitForEvent('page'), page.locator('#p .pl-open').click()]);
  await expect(app.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(app.locator('#scenario-picker')).toHaveValue('rollback');
  await expect(app.locator('#scenario-name')).toHaveText('— rollback');
  // The docs page's own language mark is left alone.
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('');
});

test('a player follows attributes set after it was inserted, and autoplay waits until it is in view', async ({ page }) => {
  await page.route('**/dynamic-embed.html', (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Docs</title><div style="height: 3000px">Long intro</div>
        <script type="module" src="/embed.js"></script>`,
    }),
  );
  await page.goto('/dynamic-embed.html');
  // A framework inserts the element first and sets its attributes after.
  await page.evaluate(() => {
    const el = document.createElement('rollout-lab');
    el.id = 'p';
    document.body.append(el);
    el.setAttribute('panels', 'cluster');
    el.setAttribute('scenario', 'rollback');
    el.setAttribute('autoplay', 'true');
    el.setAttribute('speed', '60');
  });
  const player = page.locator('#p .player');
  await expect(player).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#p .pl-title')).toHaveText('rollback');
  // Below the fold: autoplay has not started.
  await page.waitForTimeout(1000);
  await expect(page.locator('#p .pl-label')).toContainText(/^step 0 \//);
  await page.locator('#p').scrollIntoViewIfNeeded();
  await expect(page.locator('#p .pl-label')).not.toContainText(/^step 0 \//);
  // The reader steps back: autoplay no longer follows the view.
  await page.locator('#p .pl-back').click();
  await expect(page.locator('#p .pl-play')).toHaveAttribute('aria-pressed', 'false');
  // An advance of the play that was under way when Back was pressed lands
  // first, then the Back (which may wait in the engine behind the run
  // computed ahead once the player came into view): the step shown settles.
  const label = () => page.locator('#p .pl-label').textContent();
  let at: string | null = null;
  await expect
    .poll(async () => {
      const before = await label();
      await page.waitForTimeout(700);
      at = await label();
      return at === before;
    }, { timeout: 15_000 })
    .toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.locator('#p').scrollIntoViewIfNeeded();
  await page.waitForTimeout(800);
  await expect(page.locator('#p .pl-label')).toHaveText(at ?? '');
  // A later change of the scenario makes a new player.
  await page.evaluate(() => document.getElementById('p')!.setAttribute('scenario', 'recreate'));
  await expect(page.locator('#p .pl-title')).toHaveText('recreate');
});

test('a fresh player knows its whole run: the slider spans it and three quick presses are three steps', async ({ page }) => {
  await page.goto('/embed?scenario=adoption&panels=cluster');
  await expect(page.locator('.player')).toHaveAttribute('data-ready', 'true');
  // The run is computed ahead: "step 0 / 36", not "step 0 / 0".
  await expect(page.locator('.pl-label')).toContainText('step 0 / 36 ');
  await expect(page.locator('.pl-scrub')).toHaveAttribute('max', '36');
  // The slider can go forward at once.
  await page.locator('.pl-scrub').focus();
  await page.keyboard.press('End');
  await expect(page.locator('.pl-label')).toContainText('step 36 / 36 ');
  await page.locator('.pl-reset').click();
  await expect(page.locator('.pl-label')).toContainText('step 0 / 36 ');
  await page.locator('.player').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.pl-label')).toContainText('step 3 / 36 ');
});

test('/embed trace panel: the 10th similar Event is shown combined, as client-go\'s correlator stores it (1280x720)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/embed?scenario=rolling-update-10-3-2&panels=cluster,trace&step=5');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.pl-label')).toContainText('step 5 /');
  // Step 5 is the first ReplicaSet's sync: 10 creates; the 9 first Events are stored as recorded.
  const combined = page.getByText(/Created pod: web-7b786dbddb-\w+ \(similar events combined: new event web-7b786dbddb\.[0-9a-f]+\)/);
  await expect(combined).toHaveCount(1);
  await expect(page.getByText(/\(similar events combined/)).toHaveCount(1);
  await combined.scrollIntoViewIfNeeded();
  await combined.click();
  await expect(page.getByText('"written": "combined"')).toBeVisible();
  await page.screenshot({ path: shot('embed-trace-combined-1280x720') });
});

// The docs page's default player (cluster, math, chart; 500px high, about
// 52rem wide) in the middle of the rolling update: the cluster takes the
// whole left column, the new and the old ReplicaSet stand side by side with
// every pod in view, and the chart's legend names every line. Before, the
// cluster had half the height and stacked its ReplicaSets (the old one and
// the pods below the panel's edge), and the legend was scrolled out of the
// chart panel.
for (const panels of ['cluster,math,chart', 'math,chart,cluster']) test(`/embed at docs size (${panels}): the cluster is the hero, ReplicaSets side by side, pods and legend in view`, async ({ page }) => {
  await page.setViewportSize({ width: 832, height: 500 });
  // The cluster takes the left column wherever it is listed.
  await page.goto(`/embed?scenario=rolling-update-10-3-2&panels=${panels}&step=145`);
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.pl-label')).toContainText('step 145 /');
  const cluster = page.locator('.pl-cluster');
  const chart = page.locator('.pl-chart');
  const cb = (await cluster.boundingBox())!;
  const mb = (await page.locator('.pl-math').boundingBox())!;
  const chb = (await chart.boundingBox())!;
  // The cluster spans the math panel and the chart beside it, math above.
  expect(cb.height).toBeGreaterThan(mb.height + chb.height);
  expect(cb.x).toBeLessThan(mb.x);
  expect(Math.abs(mb.x - chb.x)).toBeLessThan(1);
  expect(mb.y).toBeLessThan(chb.y);
  const rs = cluster.locator('.rs');
  await expect(rs).toHaveCount(2);
  await expect(rs.nth(0).locator('.rs-head')).toContainText('rev 2');
  await expect(rs.nth(1).locator('.rs-head')).toContainText('rev 1');
  const [a, b] = [(await rs.nth(0).boundingBox())!, (await rs.nth(1).boundingBox())!];
  expect(Math.abs(a.y - b.y)).toBeLessThan(1);
  expect(b.x).toBeGreaterThan(a.x + a.width - 1);
  // 5 new pods and 10 old ones (2 of them terminating), every one inside the cluster panel's visible box.
  const pods = cluster.locator('.pod');
  await expect(pods).toHaveCount(15);
  for (const box of await pods.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.y).toBeGreaterThanOrEqual(cb.y);
    expect(box.y + box.height).toBeLessThanOrEqual(cb.y + cb.height);
  }
  // The legend's three keys are inside the chart panel's visible box.
  const keys = chart.locator('.legend li');
  await expect(keys).toHaveCount(3);
  for (const box of await keys.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.y + box.height).toBeLessThanOrEqual(chb.y + chb.height);
  }
  await page.screenshot({ path: shot(`embed-docs-size-step145-${panels.replaceAll(',', '-')}`) });
});

test('/embed tells the scenario\'s notes: each at its step, record-anchored ones included, with Next and Previous note (832x500)', async ({ page }) => {
  await page.setViewportSize({ width: 832, height: 500 });
  await page.goto('/embed?scenario=rolling-update-10-3-2');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  const notes = page.locator('.pl-notes');
  const next = page.locator('.pl-note-next');
  const prev = page.locator('.pl-note-prev');
  const label = page.locator('.pl-label');
  await expect(notes).toBeVisible();
  await expect(notes).toHaveAttribute('data-at', 'ahead');
  await expect(page.locator('.pl-note')).toHaveText('This run has 4 notes: "Next note" goes to the step the first one is about.');
  await expect(prev).toHaveAttribute('aria-disabled', 'true');
  await expect(next).toHaveAttribute('aria-disabled', 'false');
  // The scenario's notes, in order: two anchored to the nth NewRSMath
  // record, one at a fixed step, one at the first DeletionRanking record.
  // The first press searches the run for the record notes; the steps it
  // goes through are not drawn (the label only ever shows a note's step).
  // (Once the run ahead is computed: its length, in the label, changes no more.)
  await expect(label).toHaveText(/^step 0 \/ \d+ ·/);
  const labels: string[] = [];
  await page.exposeFunction('__label', (x: string) => {
    const step = /step (\d+)/.exec(x)?.[1] ?? x;
    if (labels.at(-1) !== step) labels.push(step);
  });
  await label.evaluate((el) => new MutationObserver(() => (window as unknown as { __label(x: string): void }).__label(el.textContent ?? '')).observe(el, { childList: true, characterData: true, subtree: true }));
  const want = [
    [2, 'The first ReplicaSet gets all 10 replicas'],
    [95, 'The image changed; the new ReplicaSet starts at 3'],
    [99, 'Expectations'],
    [113, 'Which pods go first'],
  ] as const;
  for (const [i, [step, title]] of want.entries()) {
    await next.click();
    await expect(label).toContainText(`step ${step} /`);
    await expect(page.locator('.pl-note-title')).toHaveText(title);
    await expect(page.locator('.pl-note-count')).toHaveText(`note ${i + 1} of 4`);
    await expect(notes).toHaveAttribute('data-at', 'here');
  }
  expect(labels).toEqual(['2', '95', '99', '113']);
  await expect(next).toHaveAttribute('aria-disabled', 'true');
  // The focus stayed on the button the reader pressed (a disabled button
  // would have dropped it to the page): the clicker's keys go on working.
  await expect(next).toBeFocused();
  await page.keyboard.press('PageUp');
  await expect(label).toContainText('step 99 /');
  await expect(page.locator('.pl-note-title')).toHaveText('Expectations');
  await page.keyboard.press('PageDown');
  await expect(label).toContainText('step 113 /');
  // A step on: the last note stays, dimmed, and says which step it is about.
  await page.locator('.pl-step').click();
  await expect(label).toContainText('step 114 /');
  await expect(notes).toHaveAttribute('data-at', 'before');
  await expect(page.locator('.pl-note-count')).toHaveText('note 4 of 4 · about step 113');
  await page.keyboard.press('PageUp');
  await expect(label).toContainText('step 113 /');
  // The strip sits between the controls and the panels, its buttons inside it.
  const [strip, panels, nav] = [(await notes.boundingBox())!, (await page.locator('.pl-panels').boundingBox())!, (await page.locator('.pl-note-nav').boundingBox())!];
  expect(strip.y + strip.height).toBeLessThanOrEqual(panels.y);
  expect(nav.y).toBeGreaterThanOrEqual(strip.y);
  expect(nav.x + nav.width).toBeLessThanOrEqual(strip.x + strip.width);
  await page.screenshot({ path: shot('embed-notes-832x500') });
});

test('/embed notes: a player started past a record note shows it; two notes of one step are two presses; zh-CN; notes=false hides them', async ({ page }) => {
  // Started at step 120, past every note: the last one is shown, though the reader never stepped through the run.
  await page.goto('/embed?scenario=rolling-update-10-3-2&step=120');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.pl-note-count')).toHaveText('note 4 of 4 · about step 113');
  await expect(page.locator('.pl-note-next')).toHaveAttribute('aria-disabled', 'true');
  // The adoption scenario's two notes fall at one step (ClaimPods, then manageReplicas in the same sync).
  await page.goto('/embed?scenario=adoption');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await page.locator('.pl-note-next').click();
  await expect(page.locator('.pl-note-title')).toHaveText('Adoption');
  await expect(page.locator('.pl-label')).toContainText('step 10 /');
  await page.locator('.pl-note-next').click();
  await expect(page.locator('.pl-note-title')).toHaveText('Only one pod is created');
  await expect(page.locator('.pl-label')).toContainText('step 10 /');
  await expect(page.locator('.pl-note-next')).toHaveAttribute('aria-disabled', 'true');
  await page.locator('.pl-note-prev').click();
  await expect(page.locator('.pl-note-title')).toHaveText('Adoption');
  // In the page's language when the scenario has the note in it.
  await page.goto('/embed?scenario=adoption&lang=zh-CN');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await page.locator('.pl-note-next').click();
  await expect(page.locator('.pl-note-title')).toHaveText('领养');
  await expect(page.locator('.pl-note-count')).toHaveText('第 1 条讲解要点，共 2 条');
  // Turned off by the embedder; and a scenario without notes has no strip.
  await page.goto('/embed?scenario=adoption&notes=false');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.pl-notes')).toBeHidden();
  await page.goto('/embed?scenario=rollback');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.pl-notes')).toBeHidden();
});

test('/embed notes the run never reaches (a record it never writes, a step past its end) are not waited for', async ({ page }) => {
  await page.goto(`/embed#source=${encodeURIComponent(NOTES_EDGE_YAML)}`);
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  const next = page.locator('.pl-note-next');
  await next.click();
  await expect(page.locator('.pl-note-title')).toHaveText('Three');
  await expect(page.locator('.pl-label')).toContainText('step 3 /');
  // The search reads the whole run, finds neither, and comes back.
  await next.click();
  await expect(page.locator('.pl-note-count')).toHaveText('note 1 of 3 · no more notes in this run');
  await expect(page.locator('.pl-label')).toContainText('step 3 /');
  await expect(next).toHaveAttribute('aria-disabled', 'true');
  await expect(page.locator('.pl-status')).toBeHidden(); // no seek past the end was asked of the engine
  // The player goes on working.
  await page.locator('.pl-step').click();
  await expect(page.locator('.pl-label')).toContainText('step 4 /');
});

test('/embed note=N starts at that note\'s step (a record-anchored one too, with the strip hidden); a note the run lacks is said, and it starts at 0', async ({ page }) => {
  const start = async (q: string) => {
    await page.goto(`/embed?${q}`);
    await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  };
  await start('scenario=rolling-update-10-3-2&note=4');
  await expect(page.locator('.pl-label')).toContainText('step 113 /');
  await expect(page.locator('.pl-note-title')).toHaveText('Which pods go first');
  await expect(page.locator('.pl-notes')).toHaveAttribute('data-at', 'here');
  await expect(page.locator('.pl-status')).toBeHidden();
  // The math panel shows that step's decisions (the ranking that picks the pods to delete).
  await expect(page.locator('.pl-math')).toContainText('getPodsToDelete');
  // note wins over step; the strip may be hidden and the note still found.
  await start('scenario=rolling-update-10-3-2&note=2&notes=false&step=7');
  await expect(page.locator('.pl-label')).toContainText('step 95 /');
  await expect(page.locator('.pl-notes')).toBeHidden();
  const warnings: string[] = [];
  page.on('console', (m) => void (m.type() === 'warning' && warnings.push(m.text())));
  // A note in the file that the run never reaches.
  await page.goto(`/embed?note=2#source=${encodeURIComponent(NOTES_EDGE_YAML)}`);
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.pl-status')).toHaveText('This run never reaches note 2: starting at step 0.');
  await start('scenario=rolling-update-10-3-2&note=9');
  await expect(page.locator('.pl-status')).toHaveText('This run has no note 9 (it has 4): starting at step 0.');
  await expect(page.locator('.pl-label')).toContainText('step 0 /');
  expect(warnings).toContain('Rollout Lab player: This run has no note 9 (it has 4): starting at step 0.');
  // The player works: a step is a step.
  await page.locator('.pl-step').click();
  await expect(page.locator('.pl-label')).toContainText('step 1 /');
});

test('docs/embed.html: a player\'s note keys move its notes, never the page; a narrow player stacks its panels without overlap', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.goto('/docs/embed.html');
  const first = page.locator('#first');
  await expect(first.locator('.player')).toHaveAttribute('data-ready', 'true');
  await first.locator('.pl-note-next').click();
  await expect(first.locator('.pl-label')).toContainText('step 2 /');
  const y = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('PageDown');
  await expect(first.locator('.pl-label')).toContainText('step 95 /');
  expect(await page.evaluate(() => window.scrollY)).toBe(y);
  // With the focus on the page, PageDown is the page's: it scrolls, and no note moves.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('PageDown');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y);
  // 420px wide: the three panels stack, each in its own row.
  await page.setViewportSize({ width: 420, height: 800 });
  const boxes = await first.locator('.pl-panel').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  expect(boxes).toHaveLength(3);
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.y).toBeGreaterThanOrEqual(boxes[i - 1]!.y + boxes[i - 1]!.height);
});

test('/embed playback stays on a note it reaches long enough to read it, then plays on; without the strip it does not stop', async ({ page }) => {
  const stepNow = async () => Number(/step (\d+) \//.exec((await page.locator('.pl-label').textContent()) ?? '')?.[1] ?? NaN);
  // 60 steps a second is 2 steps a tick: from step 0 to 2, then only 1 to the note at step 3, not past it.
  await page.goto(`/embed?speed=60#source=${encodeURIComponent(NOTES_EDGE_YAML)}`);
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await page.locator('.pl-play').click();
  await expect(page.locator('.pl-note-title')).toHaveText('Three');
  await expect(page.locator('.pl-notes')).toHaveAttribute('data-at', 'here');
  expect(await stepNow()).toBe(3);
  await page.waitForTimeout(1500); // 60 steps a second would be at the run's end (39) by now
  expect(await stepNow()).toBe(3);
  await expect(page.locator('.pl-play')).toHaveText('Pause');
  // Having stayed its reading time (3 s for a title alone), it plays on by itself.
  await expect.poll(stepNow, { timeout: 6000 }).toBeGreaterThan(3);
  // The reader's pause stops it; Play goes on from there.
  await page.locator('.pl-play').click();
  await expect(page.locator('.pl-play')).toHaveText('Play');
  const paused = await stepNow();
  await page.waitForTimeout(300);
  expect(await stepNow()).toBe(paused);
  // With the strip turned off nothing stops playback at step 3.
  await page.goto(`/embed?speed=60&notes=false#source=${encodeURIComponent(NOTES_EDGE_YAML)}`);
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await page.locator('.pl-play').click();
  await expect.poll(stepNow, { timeout: 5000 }).toBeGreaterThan(30);
});

test('/embed of a manifest with kinds it does not simulate lists its notices, folded, with their lines, and logs them for the author (832x500)', async ({ page }) => {
  await page.setViewportSize({ width: 832, height: 500 });
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' && m.text().startsWith('Rollout Lab player: ')) warnings.push(m.text());
  });
  const yaml = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1.25}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: shop}
data: {a: b}
`;
  await page.goto(`/embed?step=20#source=${encodeURIComponent(yaml)}`);
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  const box = page.locator('.pl-notices');
  // The Service and the ConfigMap (not that the file has no Scenario
  // document: the page's author chose the default cluster).
  await expect(box.locator('summary')).toHaveText('This file has 2 notices (what the simulation leaves out or changes)');
  await expect(box).not.toHaveAttribute('open');
  await expect(box.locator('li').first()).toBeHidden();
  await box.locator('summary').click();
  await expect(box.locator('li')).toHaveText([/^line 1: Service\/web: ignored \(not simulated\)/, /^line 18: ConfigMap\/cfg: ignored/]);
  expect(warnings).toHaveLength(2);
  expect(warnings[0]).toContain('line 1: Service/web');
  // The panels keep the player: the cluster's pods are in view, open or not.
  await expect(page.locator('.pl-cluster .pod').first()).toBeInViewport();
  await page.screenshot({ path: shot('embed-notices-832x500') });
  // Space on the focused summary folds the box, as a summary's key does; it does not play.
  await box.locator('summary').focus();
  await page.keyboard.press(' ');
  await expect(box).not.toHaveAttribute('open');
  await expect(page.locator('.pl-play')).toHaveText('Play');
  // A library scenario has none, and no box.
  await page.goto('/embed?scenario=rolling-update-10-3-2');
  await expect(page.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.pl-notices')).toBeHidden();
});
