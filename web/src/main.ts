// Entry point: the shell in index.html is already on screen; this wires the
// engine status bar, theme and text-size toggles, starts the engine in its
// Worker in the background and opens the default scenario at once: its step 0
// was prerendered at build time, so it is on screen before the wasm arrives,
// and every later call waits for the engine.

import './style.css';
import { onLocaleChange, t, t as tr } from './i18n';
import { App } from './app';
import { Layout } from './player/layout';
import { wireLocale } from './player/locale';
import type { Presenter } from './present/presenter';
import { wantsPresenter } from './present/state';
import { deferredClient, loadEngine, type EngineClient, type VersionInfo } from './engine';
import { describeProgress, progressFraction, type Progress } from './progress';
import { nextTheme, type Theme } from './theme';
import { mountShareButton } from './share/button';
import { ShareRecorder } from './share/recorder';
import { hasShareLink } from './share/detect';
import { readTab, saveTab } from './share/tab';
// Bundled (about 1 kB) so the first step does not wait for the whole library.
import defaultSource from '../../scenarios/rolling-update-10-3-2.yaml?raw';
import step0 from 'virtual:step0';

/** The scenario the app opens with (scenarios.Default in Go). */
const DEFAULT_SCENARIO = 'rolling-update-10-3-2';

const status = document.querySelector<HTMLElement>('#engine-status');
const bar = document.querySelector<HTMLProgressElement>('#engine-progress');
const text = document.querySelector<HTMLElement>('#engine-text');

type EngineState = 'loading' | 'ready' | 'error';

function show(state: EngineState, message: string): void {
  if (status) status.dataset.state = state;
  if (text) text.textContent = message;
}

function showProgress(p: Progress): void {
  const fraction = progressFraction(p);
  if (bar) {
    if (fraction === null) bar.removeAttribute('value');
    else bar.value = fraction;
  }
  show('loading', `${t('player.loadingEngine')} ${describeProgress(p)}`);
}

function wireAppearance(): void {
  const root = document.documentElement;
  const themeBtn = document.getElementById('theme-btn');
  const bigBtn = document.getElementById('big-btn');
  const applyTheme = (t: Theme) => {
    if (t === 'system') delete root.dataset.theme;
    else root.dataset.theme = t;
    if (themeBtn) {
      const name = tr(`player.theme.${t}`);
      themeBtn.textContent = tr('player.theme', { theme: name });
      themeBtn.setAttribute('aria-label', tr('player.themeLabel', { theme: name }));
    }
  };
  onLocaleChange(() => applyTheme(theme));
  let theme: Theme = (localStorage.getItem('rolloutlab-theme') as Theme | null) ?? 'system';
  applyTheme(theme);
  themeBtn?.addEventListener('click', () => {
    theme = nextTheme(theme);
    localStorage.setItem('rolloutlab-theme', theme);
    applyTheme(theme);
  });
  const applyBig = (on: boolean) => {
    root.classList.toggle('big', on);
    bigBtn?.setAttribute('aria-pressed', String(on));
  };
  let big = localStorage.getItem('rolloutlab-big') === '1';
  applyBig(big);
  bigBtn?.addEventListener('click', () => {
    big = !big;
    localStorage.setItem('rolloutlab-big', big ? '1' : '0');
    applyBig(big);
  });
}

async function start(): Promise<EngineClient> {
  const engine = await loadEngine({
    wasmURL: __WASM_URL__,
    buildBytes: __WASM_BYTES__,
    onProgress: showProgress,
  });
  const version = await engine.call<VersionInfo>('version');
  if (!version.ok) throw new Error(version.error.message);
  performance.mark('rolloutlab:engine-ready'); // read by scripts/bench-browser.mjs
  const ready = () => show('ready', t('player.engineReady', { engine: version.value.engine, upstream: version.value.upstream }));
  ready();
  onLocaleChange(ready);
  return engine;
}

wireLocale();
show('loading', t('player.loadingEngine'));
document.getElementById('step-label')?.replaceChildren(t('player.stepLabel', { step: 0, max: 0 }));
wireAppearance();
const layout = new Layout('rolloutlab-panels', document.getElementById('panels-list'));
layout.apply();

/** Resolves to the engine client once it is ready (for the UI built on top). */
export const engineReady: Promise<EngineClient> = start();
engineReady.catch((e: unknown) => {
  show('error', t('player.engineFailed', { error: e instanceof Error ? e.message : String(e) }));
});
// The app starts now: the default load is answered from the prerendered step 0.
// The share recorder sees every engine call (what a share link carries).
// "rolloutlab:first-live-step": the engine has loaded step 0 too (scripts/bench-browser.mjs).
const recorder = new ShareRecorder(deferredClient(engineReady, step0, () => performance.mark('rolloutlab:first-live-step')));
window.__rolloutlabEngine = recorder.client;
window.__rolloutlabStep0 = step0; // the e2e test compares it with the engine's own answer
const app = new App(recorder.client);
window.__rolloutlabApp = app;
recorder.forkPlan = () => app.forkPlan(); // a share link carries the comparison on screen
// Presenter and predict modes are lazy chunks, outside the first load: each
// loads on the first press of its button (which it then handles itself), and
// presenter mode also when a presentation survives a reload.
let presenter: Presenter | undefined;
let presenterLoad: Promise<Presenter> | undefined;
const loadPresenter = (): Promise<Presenter> =>
  (presenterLoad ??= import('./present/presenter').then(
    ({ Presenter }) => (presenter = new Presenter(app, layout)),
    (e: unknown) => {
      presenterLoad = undefined; // a later press of Present tries again
      throw e;
    },
  ));
const onFirstClick = (id: string, fn: () => void) => document.getElementById(id)?.addEventListener('click', fn, { once: true });
// The scenario's notes show outside presenter mode too, as a strip above the
// panels that the presenter's chunk draws: it loads once the app has booted
// with a scenario that has notes, or when one is loaded later.
// (A chunk that fails to load leaves the notes out; Present tries again and
// says why it cannot.)
app.onLoad.push((anns) => {
  if (anns.length > 0 && booted) loadPresenter().catch(() => {});
});
// Once loaded, the presenter handles the button itself.
document.getElementById('present-btn')?.addEventListener('click', () => {
  if (presenter) return;
  loadPresenter().then(
    (p) => p.enter(),
    (e: unknown) => app.banner(t('player.modeFailed', { error: e instanceof Error ? e.message : String(e) }), 'error'),
  );
});
onFirstClick('predict-btn', () =>
  void import('./present/predict').then(({ Predictor }) =>
    new Predictor(app, document.getElementById('predict')!, document.getElementById('predict-btn')!).toggle(),
  ),
);
onLocaleChange(() => {
  if (presenter?.on) presenter.enter(); // redraws its panel menu
  else layout.apply();
  app.relabel();
});
const headerTools = document.querySelector('.header-tools');
if (headerTools) mountShareButton(headerTools, recorder);
// The run on screen comes back after a reload of this tab (scenario,
// actions, step), unless a share link or a presentation decides.
// A tab opened from a share link and worked in since comes back to the
// work, not to the link (the link stays in the address bar).
let link = hasShareLink(location) ? `${location.search}${location.hash}` : '';
const saved = wantsPresenter() ? null : readTab(sessionStorage);
const tab = saved && (saved.from ?? '') === link ? saved : null;
// Saved once the boot (and its restore) is over: a reload during a long
// replay keeps what was saved before, not a half-replayed run.
let booted = false;
const keepTab = () => booted && saveTab(sessionStorage, recorder.state(), defaultSource, link);
addEventListener('pagehide', keepTab);
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && keepTab());
void app
  .start(DEFAULT_SCENARIO, defaultSource, { draftStaysUnloaded: tab !== null })
  .then(async () => {
    await engineReady;
    // A share link decides the step (unless this tab has worked since);
    // otherwise presenter mode comes back where it was.
    if (link && !tab) await (await import('./share/restore')).restoreShare(app, recorder);
    else if (wantsPresenter()) await (await loadPresenter()).restore();
    else if (tab) {
      const n = tab.actions.length;
      await (await import('./share/restore')).applyShareState(app, recorder, tab, null, (step) => t(n ? 'player.tabRestoredActions' : 'player.tabRestored', { step, n }));
      await app.noteDraftKept();
    }
    booted = true;
    document.body.dataset.app = 'ready';
    if (app.annotations.length > 0) loadPresenter().catch(() => {});
    app.preloadEditorWhenIdle();
    // A share link pasted into the address bar of a tab that has the app
    // open changes only the fragment: open it as a fresh page would.
    // One restore at a time: a second link pasted while the first still
    // replays its actions waits for it (their seeks and actions would mix).
    let restoring: Promise<unknown> = Promise.resolve();
    window.addEventListener('hashchange', () => {
      if (!hasShareLink({ hash: location.hash, search: '' })) return;
      const hash = location.hash;
      restoring = restoring
        .then(() => import('./share/restore').then((m) => m.restoreShare(app, recorder, { hash, search: '' })))
        .then((ok) => {
          if (ok) link = `${location.search}${hash}`; // the run on screen now comes from this link
        })
        .catch(() => {});
    });
  })
  .catch(() => {}); // an engine that failed to start is reported by the status bar above
