// Opens a share link: `#v1.…` in the fragment, and/or `?s={id}` (a short
// link, /s/{id}, redirected by the Worker) naming a scenario stored by the
// share API. The scenario is loaded with its seed, the recorded actions are
// replayed at their steps (seek + act), each run of the What if? comparison
// it carries is forked again where the replay had reached when it was made,
// and the app ends at the shared step.
// A damaged or newer link is reported in the app's banner; the page keeps
// working with the default scenario.
import '../i18n/share-dialog';
import { parseLocale, setLocale, t } from '../i18n';
import type { UserAction } from '../types';
import { decodeShare, type ForkRun, isShareFragment, type ShareState } from './codec';
import type { ShareRecorder } from './recorder';

/** What restoring needs from the app (web/src/app.ts has these). */
export interface ShareableApp {
  load(source: string, name: string): Promise<boolean>;
  seek(step: number): Promise<void>;
  act(action: UserAction): Promise<void>;
  current(): { step: number } | null;
  banner(text: string, kind: 'panic' | 'error' | 'info'): void;
  /** Makes the scenario picker and title name what was loaded. */
  showLoaded(source: string): void;
  /** Forks one run of a shared What if? comparison again (add: beside the runs shown); resolves to whether it was made. */
  restoreFork(atStep: number, run: ForkRun, add: boolean): Promise<boolean>;
}

/** Restores the shared simulation; resolves to whether it fully succeeded. */
export async function restoreShare(app: ShareableApp, recorder: ShareRecorder, loc: Pick<Location, 'hash' | 'search'> = location): Promise<boolean> {
  const id = new URLSearchParams(loc.search).get('s');
  let state: ShareState;
  if (isShareFragment(loc.hash)) {
    const r = await decodeShare(loc.hash);
    if (!r.ok) {
      app.banner(r.kind === 'newer' ? t('share.newer', { version: `v${r.version}` }) : t('share.corrupt', { reason: r.reason }), 'error');
      return false;
    }
    state = r.state;
  } else if (id && /^[0-9a-f]{32}$/.test(id)) {
    state = { id, actions: [], step: 0 };
  } else {
    return false;
  }
  return applyShareState(app, recorder, state, id, (step) => t(state.forks ? 'share.restoredWithComparison' : 'share.restored', { step }));
}

/**
 * Loads a shared (or kept) state: its scenario with its seed, its actions
 * replayed at their steps, then its step; done names the result in the
 * banner. Resolves to whether it fully succeeded. id is a short link's
 * stored scenario, when the state has no source.
 */
export async function applyShareState(app: ShareableApp, recorder: ShareRecorder, state: ShareState, id: string | null, done: (step: number) => string): Promise<boolean> {
  if (state.lang) {
    const l = parseLocale(state.lang);
    if (l) setLocale(l);
  }
  let source = state.source;
  if (source === undefined) {
    const sid = state.id ?? id ?? '';
    try {
      const res = await fetch(`/api/scenarios/${sid}`);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      source = await res.text();
    } catch (e) {
      app.banner(t('share.fetchFailed', { id: sid, message: (e as Error).message }), 'error');
      return false;
    }
  }
  recorder.useSeed(state.seed);
  if (!(await app.load(source, state.name ?? 'shared.yaml'))) {
    app.banner(t('share.restoreFailed', { message: 'the scenario did not load' }), 'error');
    return false;
  }
  app.showLoaded(source);
  // Each run of the comparison is forked again once the actions made
  // before it are (the runs' counts never decrease: codec.validForks).
  const runs = state.forks?.runs ?? [];
  let forked = 0;
  let forksMade = true;
  const forkDue = async (made: number) => {
    for (; forked < runs.length && runs[forked]!.afterActions <= made; forked++) {
      forksMade = (await app.restoreFork(state.forks!.atStep, runs[forked]!, forked > 0)) && forksMade;
    }
  };
  for (const [i, a] of state.actions.entries()) {
    await forkDue(i);
    await app.seek(a.step);
    await app.act(a.action);
  }
  await forkDue(state.actions.length);
  await app.seek(state.step);
  // An action the engine refused now (a newer build's limits) is not in
  // the run: say so rather than "restored".
  const replayed = recorder.state()?.actions.length ?? 0;
  if (replayed < state.actions.length) {
    app.banner(t('share.restoreFailed', { message: `${state.actions.length - replayed} of ${state.actions.length} action(s) could not be done again` }), 'error');
    return false;
  }
  if (!forksMade) {
    app.banner(t('share.restoreFailed', { message: 'the What if? comparison could not be made again' }), 'error');
    return false;
  }
  const at = app.current()?.step ?? 0;
  if (at !== state.step) {
    app.banner(t('share.restoreFailed', { message: `step ${state.step} was not reached (at ${at})` }), 'error');
    return false;
  }
  app.banner(done(at), 'info');
  return true;
}
