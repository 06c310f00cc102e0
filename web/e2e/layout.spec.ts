// The player's layout (#12): at 1280x720 the cluster view, the controls and
// the math panel are on screen without scrolling, in the normal and the
// presenter mode; the controls keep their size while stepping; the language
// switch leaves no English UI string; the action form is a few keys away.
// Screenshots (light and dark, 1280x720 and 800x500) go to test-artifacts/.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { pasteAndLoad, scrubTo } from './editor';
import { NOTES_EDGE_YAML } from './notes-edge';
import { mathStrings } from '../src/i18n/math';
import { playerStrings } from '../src/i18n/player';
import { presentStrings } from '../src/i18n/present';
import { zh as mathZh } from '../src/i18n/zh-CN/math';
import { zh as playerZh } from '../src/i18n/zh-CN/player';
import { zh as presentZh } from '../src/i18n/zh-CN/present';

const shot = (name: string) => fileURLToPath(new URL(`../../test-artifacts/layout-${name}.png`, import.meta.url));

async function ready(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
}

async function step(page: Page): Promise<number> {
  const label = (await page.locator('#step-label').textContent()) ?? '';
  return Number(/(\d+)/.exec(label)?.[1] ?? -1);
}

/** Presses "s" n times, waiting for each step to be drawn. */
async function syncs(page: Page, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const before = await step(page);
    await page.keyboard.press('s');
    await expect.poll(() => step(page)).not.toBe(before);
  }
}

async function inViewport(page: Page, loc: Locator, what: string): Promise<void> {
  const vp = page.viewportSize()!;
  const box = await loc.boundingBox();
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box!.y, `${what} top`).toBeGreaterThanOrEqual(0);
  expect(box!.x, `${what} left`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} bottom`).toBeLessThanOrEqual(vp.height);
  expect(box!.x + box!.width, `${what} right`).toBeLessThanOrEqual(vp.width);
}

function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}

test('1280x720: cluster, controls and math in view; stable while stepping; screenshots', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watch(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
  await ready(page);
  const controlsH = (await page.locator('#controls').boundingBox())!.height;
  await syncs(page, 24); // into the rollout: two ReplicaSets side by side
  await expect(page.locator('#cluster .rs')).toHaveCount(2);
  expect((await page.locator('#controls').boundingBox())!.height).toBe(controlsH);
  for (const [sel, what] of [['#panel-cluster', 'cluster view'], ['#controls', 'step controls'], ['#panel-math', 'math panel']] as const) {
    await inViewport(page, page.locator(sel), what);
  }
  await expect(page.locator('#pod-legend li')).toHaveCount(8);
  await page.screenshot({ path: shot('1280-light') });
  // Every panel explains itself, and names upstream functions with links to v1.36.3.
  await page.locator('#panel-math .explain summary').click();
  const link = page.locator('#panel-math .explain-body a', { hasText: 'reconcileOldReplicaSets' });
  await expect(link).toHaveAttribute('href', 'https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/deployment/rolling.go');
  await expect(page.locator('.explain[data-explain] .explain-body p')).toHaveCount(9);
  await expect(page.locator('#panel-queue .explain-body')).toContainText('dirty');
  // The chart: axis titles, several ticks, and a legend entry per line.
  await expect(page.locator('#chart .axis-title')).toHaveText([/^step/, 'replicas']);
  await expect.poll(() => page.locator('#chart text').count()).toBeGreaterThan(6); // 2 titles, ≥ 3 y and ≥ 2 x ticks
  await expect(page.locator('#chart-legend li')).toHaveCount(3);
  await page.locator('#chart-zoom').selectOption('action');
  // kubectl's widest table fits its panel at 1280 (no clipped columns).
  await page.locator('#kubectl-cmd').selectOption('get pods -o wide');
  await expect(page.locator('#kubectl-out')).toContainText('NOMINATED NODE');
  const fits = await page.locator('#kubectl-out').evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(fits).toBe(true);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: shot('1280-dark') });
  // Large text still shows the simulation.
  await page.locator('#big-btn').click();
  await inViewport(page, page.locator('#controls'), 'controls (large text)');
  expect((await page.locator('#panel-cluster').boundingBox())!.y).toBeLessThan(400);
  await page.screenshot({ path: shot('1280-big') });
  await page.locator('#big-btn').click();
  await page.setViewportSize({ width: 800, height: 500 });
  await inViewport(page, page.locator('#controls'), 'controls at 800x500');
  expect((await page.locator('#panel-cluster').boundingBox())!.y).toBeLessThan(300);
  await page.screenshot({ path: shot('800-dark') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: shot('800-light') });
  expect(problems).toEqual([]);
});

test('panels can be hidden and reordered, and the choice is remembered', async ({ page }) => {
  await ready(page);
  await page.locator('#panels-menu summary').click();
  await page.locator('#show-queue').uncheck();
  await expect(page.locator('#panel-queue')).toBeHidden();
  await page.getByRole('button', { name: 'Move Math of this step up' }).click();
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#panel-queue')).toBeHidden();
  const order = await page.evaluate(() => [document.getElementById('panel-math')!.style.order, document.getElementById('panel-cluster')!.style.order]);
  expect(order).toEqual(['0', '1']);
});

test('presenter: notes, keyboard remote, panels in view, survives reload', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watch(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await ready(page);
  await page.locator('#present-btn').click();
  await expect(page.locator('html')).toHaveClass(/present/);
  await expect(page.locator('#annotation')).toBeVisible();
  await expect(page.locator('#panel-queue')).toBeHidden(); // only the chosen panels
  // Before the first note the scenario's description is the caption.
  await expect(page.locator('#annotation')).toHaveAttribute('data-at', 'intro');
  await expect(page.locator('#ann-title')).toHaveText('rolling-update-10-3-2');
  await expect(page.locator('#ann-text')).not.toBeEmpty();
  // The help lists the presenter's remote first.
  await page.locator('#present-btn').focus();
  await page.evaluate(() => (document.getElementById('help') as HTMLDialogElement).showModal());
  await expect(page.locator('#help-keys h3').first()).toContainText('Presenter mode');
  await expect(page.locator('#help-keys dl').first()).toContainText('next / previous note');
  await page.evaluate(() => (document.getElementById('help') as HTMLDialogElement).close());
  await page.locator('body').click({ position: { x: 640, y: 5 } });
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-title')).toHaveText('The first ReplicaSet gets all 10 replicas');
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-title')).toHaveText('The image changed; the new ReplicaSet starts at 3');
  await expect(page.locator('#step-label')).toHaveText(/^step 95 \//);
  await expect(page.locator('#annotation')).toHaveAttribute('data-at', 'here');
  await expect(page.locator('#math .math-block[data-type="NewRSMath"]')).toBeVisible();
  // The new ReplicaSet (revision 2) is drawn first and marked newest.
  await expect(page.locator('#cluster .rs').first()).toHaveAttribute('data-age', 'new');
  await expect(page.locator('#cluster .rs').first().locator('.rs-head')).toContainText('rev 2');
  await expect(page.locator('#cluster .rs').nth(1)).toHaveAttribute('data-age', 'old');
  for (const [sel, what] of [['#panel-cluster', 'cluster view'], ['#controls', 'step controls'], ['#panel-math', 'math panel'], ['#annotation', 'note']] as const) {
    await inViewport(page, page.locator(sel), what);
  }
  // The rolling update's budget, where the pods are: 10 + 3 and 10 - 2.
  await expect(page.locator('#cluster .deploy-budget')).toHaveText('max replicas 10 + 3 = 13 (now 11) · min available 10 − 2 = 8 (now 10)');
  await inViewport(page, page.locator('#cluster .rs').nth(1).locator('.pods'), 'the old ReplicaSet\'s pods');
  await page.screenshot({ path: shot('present-1280') });
  await page.keyboard.press('Space'); // next sync
  await expect.poll(() => step(page)).toBeGreaterThan(95);
  await page.keyboard.press('PageUp');
  await expect(page.locator('#step-label')).toHaveText(/^step 95 \//);
  // A clicker's PageDown after someone used the slider goes to the next
  // note (the slider does not take it and move ten steps back).
  await page.locator('#scrubber').focus();
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-count')).toHaveText(/^note 3 of 4/);
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-count')).toHaveText('note 4 of 4 · This is the last note; PageDown now steps by sync.');
  await expect(page.locator('#ann-next')).toBeDisabled();
  // The search for note 4 computes past it, then comes back to its step.
  await expect(page.locator('#annotation')).toHaveAttribute('data-at', 'here');
  const last = await step(page);
  await page.keyboard.press('PageDown'); // no note left: a clicker steps by sync
  await expect.poll(() => step(page)).toBeGreaterThan(last);
  await expect(page.locator('#ann-count')).toContainText('note 4 of 4');
  // Space pauses a run that plays.
  await page.locator('#play-btn').click();
  await expect(page.locator('#play-btn')).toHaveAttribute('aria-pressed', 'true');
  await page.locator('body').click({ position: { x: 640, y: 5 } });
  await page.keyboard.press('Space');
  await expect(page.locator('#play-btn')).toHaveAttribute('aria-pressed', 'false');
  for (let i = 0; i < 4 && (await step(page)) > 95; i++) {
    const before = await step(page);
    await page.keyboard.press('PageUp');
    await expect.poll(() => step(page)).toBeLessThan(before);
  }
  await expect(page.locator('#step-label')).toHaveText(/^step 95 \//);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('html')).toHaveClass(/present/);
  await expect(page.locator('#step-label')).toHaveText(/^step 95 \//);
  await expect(page.locator('#ann-title')).toHaveText('The image changed; the new ReplicaSet starts at 3');
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).not.toHaveClass(/present/);
  expect(problems).toEqual([]);
});

// An instructor on a 1280x720 projector with large text, past the last
// note: the note's buttons and count keep one row (the count's sentence,
// cut, is whole in its title) and the long note scrolls inside its box, so
// both ReplicaSets' pods stay on screen. Before, the row wrapped into three
// and the note took five lines: the pods were below the screen's edge.
test('presenter with large text at the last note: one row of note buttons, the note scrolls, the pods stay in view', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watch(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await ready(page);
  await page.locator('#present-btn').click();
  await page.locator('#big-btn').click();
  await expect(page.locator('html')).toHaveClass(/present/);
  await expect(page.locator('html')).toHaveClass(/big/);
  await page.locator('body').click({ position: { x: 640, y: 5 } });
  for (let n = 1; n <= 4; n++) {
    await page.keyboard.press('PageDown');
    await expect(page.locator('#ann-count')).toHaveText(new RegExp(`^note ${n} of 4`));
  }
  await expect(page.locator('#ann-title')).toHaveText('Which pods go first');
  const at = await step(page);
  await page.keyboard.press('PageDown'); // no note left: one sync on
  await expect.poll(() => step(page)).toBeGreaterThan(at);
  const count = page.locator('#ann-count');
  await expect(count).toHaveAttribute('title', `note 4 of 4 · about step ${at} · This is the last note; PageDown now steps by sync.`);
  const rowYs = await page.locator('.annotation-nav > :visible').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)));
  expect(new Set(rowYs).size, `one row: ${rowYs}`).toBe(1);
  expect(await count.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true); // cut, with its title
  expect(await page.locator('#ann-text').evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  const rs = page.locator('#cluster .rs');
  await expect(rs).toHaveCount(2);
  for (const i of [0, 1]) await inViewport(page, rs.nth(i).locator('.pod').first(), `ReplicaSet ${i + 1}'s first pod`);
  await page.screenshot({ path: shot('present-big-last-note-1280') });
  expect(problems).toEqual([]);
});

test('presenter with a clicker: both notes of one step, a scenario without notes, quick presses, the slider gives up Escape', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watch(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await ready(page);
  await page.locator('#scenario-picker').selectOption('adoption');
  await expect(page.locator('#scenario-name')).toContainText('adoption');
  await page.locator('#present-btn').click();
  await page.locator('body').click({ position: { x: 640, y: 5 } });
  // Adoption's two notes fall on one step (ClaimPods, then manageReplicas in
  // the same sync): two presses, one step.
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-title')).toHaveText('Adoption');
  await expect(page.locator('#ann-count')).toHaveText(/^note 1 of 2/);
  const at = await step(page);
  await expect(page.locator('#math .math-block[data-type="ClaimDecision"]')).toContainText('orphan labels env=prod match selector env=prod');
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-title')).toHaveText('Only one pod is created');
  expect(await step(page)).toBe(at);
  await page.keyboard.press('PageUp');
  await expect(page.locator('#ann-title')).toHaveText('Adoption');
  expect(await step(page)).toBe(at);
  // The context blocks fold to one line: the decision is in view.
  await page.keyboard.press('PageDown');
  const manage = page.locator('#math .math-block[data-type="ManageDecision"]');
  await inViewport(page, manage, 'manageReplicas in the math panel');
  expect(await manage.evaluate((e) => e.getBoundingClientRect().bottom <= e.closest('.panel')!.getBoundingClientRect().bottom)).toBe(true);
  await page.screenshot({ path: shot('present-adoption') });

  // A scenario without notes: PageDown steps by sync, PageUp back.
  await page.locator('#present-btn').click(); // leave, to use the picker
  await page.locator('#scenario-picker').selectOption('max-unavailable-zero');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  await page.locator('#present-btn').click();
  await page.locator('body').click({ position: { x: 640, y: 5 } });
  await expect(page.locator('#ann-count')).toContainText('no notes');
  await page.keyboard.press('PageDown');
  await expect.poll(() => step(page)).toBeGreaterThan(0);
  const one = await step(page);
  // Three quick presses are three syncs, none dropped while one is
  // computed: where three slow ones go, then back, then three quick ones.
  for (let i = 0; i < 3; i++) {
    const before = await step(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => step(page)).toBeGreaterThan(before);
  }
  const third = await step(page);
  for (let i = 0; i < 3; i++) {
    const before = await step(page);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => step(page)).toBeLessThan(before);
  }
  expect(await step(page)).toBe(one);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => step(page)).toBe(third);
  await page.keyboard.press('PageUp'); // no note: back a sync
  await expect.poll(() => step(page)).toBeLessThan(third);
  // The slider keeps its arrows, but Escape leaves presenter mode.
  await page.locator('#scrubber').focus();
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).not.toHaveClass(/present/);
  expect(problems).toEqual([]);
});

test('presenter: a note at a step the run ends before is not in it; the clicker\'s PageDown steps on instead of failing', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await pasteAndLoad(page, NOTES_EDGE_YAML);
  await expect(page.locator('#scenario-name')).toContainText('notes-edge');
  await page.locator('#present-btn').click();
  await page.locator('body').click({ position: { x: 640, y: 5 } });
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-title')).toHaveText('Three');
  await expect.poll(() => step(page)).toBe(3);
  // The run ends at step 39: the note at step 5000 is not in it, nor is
  // the record the second note waits for. The press steps by sync (the
  // clicker's rule with no note left), and says nothing went wrong (it
  // said "seek: no such step: the run ends at step 39").
  await page.keyboard.press('PageDown');
  await expect.poll(() => step(page)).toBeGreaterThan(3);
  await expect(page.locator('#ann-title')).toHaveText('Three');
  await expect(page.locator('#ann-count')).toHaveText(/^note 1 of 3 · about step 3/);
  await expect(page.locator('#banner')).toBeHidden();
  expect(problems).toEqual([]);
});

test('notes outside presenter mode: a strip above the panels, next and previous note without showing the search, a fold that is remembered, hidden without notes', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watch(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await ready(page);
  // The default scenario has four notes: the strip says so before the first.
  const box = page.locator('#annotation');
  await expect(box).toBeVisible();
  await expect(box).toHaveAttribute('data-at', 'intro');
  await expect(page.locator('#ann-count')).toHaveText('4 notes tell the story of this run; Next note goes to the first.');
  // The description is in the intro above: no title nor text here.
  await expect(page.locator('#ann-title')).toBeHidden();
  await expect(page.locator('#ann-text')).toBeHidden();
  await expect(page.locator('#present-exit')).toBeHidden();
  await expect(box).not.toHaveAttribute('aria-live', /./); // announced in presenter mode only
  // Every step label drawn from here on: the search for the first note
  // (a record note, placed once the run is read) is not shown. Each engine
  // call is slowed down so that frames fall between the search's seeks.
  await page.evaluate(() => {
    const w = window as unknown as { labels: string[]; __rolloutlabEngine: { call: (...a: unknown[]) => Promise<unknown> } };
    w.labels = [];
    new MutationObserver(() => w.labels.push(document.getElementById('step-label')!.textContent ?? '')).observe(document.getElementById('step-label')!, { childList: true, characterData: true, subtree: true });
    const engine = w.__rolloutlabEngine;
    const call = engine.call.bind(engine);
    engine.call = async (...a: unknown[]) => {
      await new Promise((r) => setTimeout(r, 40));
      return call(...a);
    };
  });
  await page.locator('#ann-next').click();
  await expect(page.locator('#ann-title')).toHaveText('The first ReplicaSet gets all 10 replicas');
  await expect(page.locator('#step-label')).toHaveText(/^step 2 \//);
  await expect(box).toHaveAttribute('data-at', 'here');
  const labels = await page.evaluate(() => (window as unknown as { labels: string[] }).labels);
  expect(labels.filter((l) => !/^step [02] \//.test(l))).toEqual([]);
  await page.locator('#ann-next').click();
  await expect(page.locator('#ann-title')).toHaveText('The image changed; the new ReplicaSet starts at 3');
  await expect(page.locator('#step-label')).toHaveText(/^step 95 \//);
  await expect(page.locator('#ann-count')).toHaveText('note 2 of 4');
  // The story and the cluster's pods fit a 1280x720 screen together, and
  // the hero panels still end at its bottom edge.
  await inViewport(page, box, 'the note');
  await inViewport(page, page.locator('#cluster .rs').nth(1).locator('.pod').first(), 'the old ReplicaSet\'s first pod');
  await inViewport(page, page.locator('#panel-cluster'), 'the cluster view under the note');
  await page.locator('#ann-prev').click();
  await expect(page.locator('#step-label')).toHaveText(/^step 2 \//);
  await expect(page.locator('#ann-count')).toHaveText('note 1 of 4');
  // Folded to its row, and still folded after a reload.
  await page.locator('#ann-fold').click();
  await expect(page.locator('#ann-fold')).toHaveText('Show notes');
  await expect(page.locator('#ann-fold')).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#ann-title')).toBeHidden();
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#step-label')).toHaveText(/^step 2 \//); // the tab comes back where it was
  await expect(box).toHaveAttribute('data-folded', '');
  await expect(page.locator('#ann-fold')).toHaveText('Show notes');
  await expect(page.locator('#ann-text')).toBeHidden();
  // Presenter mode takes the strip over, folded or not, and gives it back.
  await page.locator('#present-btn').click();
  await expect(page.locator('#present-exit')).toBeVisible();
  await expect(page.locator('#ann-fold')).toBeHidden();
  await expect(page.locator('#ann-title')).toHaveText('The first ReplicaSet gets all 10 replicas');
  await expect(page.locator('#ann-text')).toBeVisible();
  await expect(box).toHaveAttribute('aria-live', 'polite');
  await page.locator('#present-exit').click();
  await expect(box).toBeVisible();
  await expect(page.locator('#present-exit')).toBeHidden();
  await expect(page.locator('#ann-title')).toBeHidden(); // still folded
  await page.locator('#ann-fold').click();
  await expect(page.locator('#ann-fold')).toHaveText('Hide notes');
  await expect(page.locator('#ann-title')).toBeVisible();
  // In the page's language.
  await page.locator('#lang-picker').selectOption('zh-CN');
  await expect(page.locator('#ann-fold')).toHaveText('隐藏讲解要点');
  await page.locator('#lang-picker').selectOption('en');
  // A scenario without notes has no strip.
  await page.locator('#scenario-picker').selectOption('max-unavailable-zero');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  await expect(box).toBeHidden();
  expect(problems).toEqual([]);
});

test('presenter: playing, the run stops at each note it reaches (two notes of one step one after the other); out of presenter mode it plays on', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await page.locator('#scenario-picker').selectOption('rolling-update-10-3-2');
  await page.locator('#speed').selectOption('60');
  await page.locator('#present-btn').click();
  await expect(page.locator('#ann-count')).toHaveText(/^4 notes/);
  // Play from step 0: it stops at the first note (step 2), then, played on, at the second (step 95).
  for (const [at, title] of [
    [2, 'The first ReplicaSet gets all 10 replicas'],
    [95, 'The image changed; the new ReplicaSet starts at 3'],
  ] as const) {
    await page.locator('#play-btn').click();
    await expect(page.locator('#play-btn')).toHaveText('Play', { timeout: 15_000 });
    await expect.poll(() => step(page)).toBe(at);
    await expect(page.locator('#ann-title')).toHaveText(title);
    await expect(page.locator('#annotation')).toHaveAttribute('data-at', 'here');
  }
  // Out of presenter mode, Play plays on past the notes.
  await page.locator('#present-exit').click();
  await page.locator('#play-btn').click();
  await expect.poll(() => step(page), { timeout: 15_000 }).toBeGreaterThan(113);
  await page.locator('#play-btn').click();
  // Two notes of one step (adoption's, at step 10): Play stops at the first,
  // then shows the second and stays, then plays on.
  await page.locator('#scenario-picker').selectOption('adoption');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  await page.locator('#present-btn').click();
  await page.locator('#play-btn').click();
  await expect(page.locator('#ann-title')).toHaveText('Adoption', { timeout: 15_000 });
  await expect(page.locator('#play-btn')).toHaveText('Play');
  await expect.poll(() => step(page)).toBe(10);
  await page.locator('#play-btn').click();
  await expect(page.locator('#ann-title')).toHaveText('Only one pod is created');
  await expect(page.locator('#play-btn')).toHaveText('Play');
  expect(await step(page)).toBe(10);
  await page.locator('#play-btn').click();
  await expect.poll(() => step(page), { timeout: 15_000 }).toBeGreaterThan(10);
  expect(problems).toEqual([]);
});

test('?present in the URL opens presenter mode; one press of the button leaves it', async ({ page }) => {
  await ready(page, '/?present');
  await expect(page.locator('html')).toHaveClass(/present/);
  await page.locator('#present-btn').click();
  await expect(page.locator('html')).not.toHaveClass(/present/);
});

test('predict: the guess is asked before the math and then marked', async ({ page }) => {
  test.setTimeout(90_000);
  await ready(page);
  await page.locator('#predict-btn').click();
  await page.locator('body').click({ position: { x: 600, y: 5 } });
  await page.keyboard.press('s'); // step 2: the first sync sizes the ReplicaSet
  await expect(page.locator('#predict .predict-q')).toContainText('How many replicas');
  await expect(page.locator('#math .math-block')).toHaveCount(0);
  await page.locator('#predict-guess').fill('10');
  await page.locator('#predict-reveal').click();
  await expect(page.locator('#predict .verdict')).toHaveAttribute('data-ok', 'true');
  await expect(page.locator('#math .math-block[data-type="NewRSMath"]')).toBeVisible();
  await expect(page.locator('#predict')).toContainText('Score: 1 of 1');
  // The next question blurs the pods: the step shown holds the answer.
  await page.keyboard.press('s');
  await expect(page.locator('#predict .predict-q')).toBeVisible();
  await expect.poll(() => page.locator('#cluster .pods').first().evaluate((e) => getComputedStyle(e).filter)).toContain('blur');
  await expect.poll(() => page.locator('#cluster .deploy-budget').first().evaluate((e) => getComputedStyle(e).filter)).toContain('blur');
  // A reset starts a new round: the score too.
  await page.locator('#reset-btn').click();
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  await expect(page.locator('#predict')).toContainText('Score: 0 of 0');
});

test('panels below the fold catch up with the step shown as soon as they are scrolled into view', async ({ page }) => {
  // At 1280x720 the timeline is below the fold: a render leaves it for
  // later (web/src/player/onscreen.ts; the delay is raised to a minute
  // here), and scrolling it into view brings it up to date at once.
  await ready(page);
  const r = await page.evaluate(async () => {
    type App = { seek(n: number): Promise<void>; advance(by: string): Promise<number>; current(): { step: number }; offscreen: { delayMs: number; flush(): void } };
    const app = (window as unknown as { __rolloutlabApp: App }).__rolloutlabApp;
    const row = () => document.querySelector('#steps .current')?.textContent ?? '';
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    await app.seek(0);
    app.offscreen.flush();
    app.offscreen.delayMs = 60_000;
    await frame();
    for (let i = 0; i < 12; i++) await app.advance('event');
    await frame();
    const before = row();
    document.getElementById('panel-steps')!.scrollIntoView();
    await frame();
    await frame();
    return { step: app.current().step, before, after: row() };
  });
  expect(r.step).toBe(12);
  expect(r.before).not.toMatch(/^12 \+/); // held back while out of view
  expect(r.after).toMatch(/^12 \+/);
});

test('math after a seek: the latest decision before the step, not none', async ({ page }) => {
  test.setTimeout(90_000);
  await ready(page);
  await page.locator('#settle-btn').click();
  await expect.poll(() => step(page)).toBeGreaterThan(120);
  await scrubTo(page, 120);
  await expect(page.locator('#math .math-block').first()).toBeVisible();
  await expect(page.locator('#math')).not.toContainText('No controller decision yet');
});

test('zh-CN: no English UI string stays visible, and the choice is remembered', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await ready(page);
  await syncs(page, 24);
  await page.locator('#lang-picker').selectOption('zh-CN');
  await expect(page.locator('#cluster-heading')).toHaveText('集群');
  await page.locator('#panel-math .explain summary').click();
  await page.locator('#panel-queue .explain summary').click();
  // Own text of every visible element (not its children's).
  const texts: string[] = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      if (el.tagName === 'OPTION' || el.tagName === 'SCRIPT' || !el.checkVisibility()) continue;
      const own = Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (own) out.push(own);
    }
    return out;
  });
  const joined = texts.join('\n');
  const english: string[] = [];
  const dicts = [
    { en: playerStrings.en, 'zh-CN': playerZh },
    { en: presentStrings.en, 'zh-CN': presentZh },
    { en: mathStrings.en, 'zh-CN': mathZh },
  ];
  for (const dict of dicts) {
    for (const [key, en] of Object.entries(dict.en)) {
      if (dict['zh-CN'][key] === en) continue; // the same in both (names, symbols)
      for (const part of en.split(/\{[\w:]+\}/)) {
        const p = part.trim();
        if (!/[A-Za-z]{2}/.test(p) || dict['zh-CN'][key]!.includes(p)) continue;
        // A phrase must not appear anywhere; a single word must not be a whole label.
        const words = p.split(/\s+/).filter((w) => /[A-Za-z]{2}/.test(w)).length;
        if (words > 1 ? joined.includes(p) : texts.includes(p)) english.push(`${key}: ${p}`);
      }
    }
  }
  expect(english).toEqual([]);
  await page.screenshot({ path: shot('zh-CN') });
  await page.reload();
  await expect(page.locator('#cluster-heading')).toHaveText('集群');
  await ready(page, '/?lang=en');
  await expect(page.locator('#cluster-heading')).toHaveText('Cluster');
});

// A workshop in Chinese: the library's description and the presenter's
// notes come in the page's language (the scenario's translations), and
// switch back with it.
test('zh-CN presenter: the scenario description and the notes are in Chinese, and follow a switch back to English', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watch(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await ready(page, '/?lang=zh-CN');
  await expect(page.locator('#cluster-heading')).toHaveText('集群');
  await expect(page.locator('#scenario-desc')).toHaveText(/^10 个副本、maxSurge 3、maxUnavailable 2 的滚动更新/);
  await page.locator('#present-btn').click();
  await expect(page.locator('html')).toHaveClass(/present/);
  // Before the first note the caption is the description, in Chinese too.
  await expect(page.locator('#annotation')).toHaveAttribute('data-at', 'intro');
  await expect(page.locator('#ann-text')).toHaveText(/^10 个副本、maxSurge 3/);
  // Cut to three lines (line-clamp), not a scroll box as a long note is.
  expect(await page.locator('#ann-text').evaluate((el) => [getComputedStyle(el).overflowY, getComputedStyle(el).webkitLineClamp])).toEqual(['hidden', '3']);
  // A switch of language redraws the caption too, there and back.
  await page.locator('#lang-picker').selectOption('en');
  await expect(page.locator('#ann-text')).toHaveText(/^A rolling update of 10 replicas/);
  await page.locator('#lang-picker').selectOption('zh-CN');
  await expect(page.locator('#ann-text')).toHaveText(/^10 个副本、maxSurge 3/);
  await page.locator('body').click({ position: { x: 640, y: 5 } });
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-title')).toHaveText('第一个 ReplicaSet 得到全部 10 个副本');
  await expect(page.locator('#ann-text')).toHaveText(/^没有旧 Pod 时，NewRSNewReplicas 把新 ReplicaSet 设为完整的副本数/);
  await page.keyboard.press('PageDown');
  await expect(page.locator('#ann-title')).toHaveText('镜像变了；新 ReplicaSet 从 3 开始');
  await page.screenshot({ path: shot('present-zh-CN-note-2') });
  await page.locator('#lang-picker').selectOption('en');
  await expect(page.locator('#ann-title')).toHaveText('The image changed; the new ReplicaSet starts at 3');
  await expect(page.locator('#ann-text')).toHaveText(/^maxTotalPods = replicas 10 \+ maxSurge 3 = 13, and/);
  await expect(page.locator('#scenario-desc')).toHaveText(/^A rolling update of 10 replicas/);
  expect(problems).toEqual([]);
});

test('tab order: the action form is three key presses away; lists are one tab stop', async ({ page }) => {
  await ready(page);
  await syncs(page, 3);
  await page.keyboard.press('Tab');
  await expect(page.locator('.skip-link')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.locator('#whatif-room .whatif-target')).toBeFocused();
  await expect(page.locator('#steps [tabindex="0"]')).toHaveCount(1);
  await expect(page.locator('#trace summary[tabindex="0"]')).toHaveCount(0);
  await page.locator('#steps .step-row.current').focus();
  await page.keyboard.press('ArrowUp');
  await expect(page.locator('#steps [tabindex="0"]')).toHaveCount(1);
  await expect(page.locator('#steps [tabindex="0"]')).toBeFocused();
});

test('dragging the step slider shows the steps it passes before it is let go', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await ready(page);
  await page.locator('#settle-btn').click();
  await expect.poll(() => step(page)).toBeGreaterThan(120);
  const end = await step(page);
  const box = (await page.locator('#scrubber').boundingBox())!;
  await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  // Still held: the view has moved with the thumb.
  await expect.poll(() => step(page)).toBeLessThan(end * 0.75);
  await page.mouse.up();
  await expect.poll(() => step(page)).toBeLessThan(end * 0.75);
});
