// The run on screen kept across a reload of this tab: the scenario, the
// user's actions and the step, as a share link carries them (ShareState),
// in sessionStorage. A reload threw the actions and the step away; the
// editor's draft (whatif/persist.ts) only kept the text.
import { type ShareState, validForks } from './codec';
import type { KeyValue } from '../whatif/persist';

export const TAB_STATE = 'rolloutlab-tab';

/**
 * Saves the run and the share link the tab was opened from (from), or
 * forgets it when there is nothing to come back to (the default scenario at
 * step 0 with no action and no comparison, opened without a link).
 */
export function saveTab(store: KeyValue, st: ShareState | null, defaultSource: string, from = ''): void {
  try {
    if (!st || (st.actions.length === 0 && st.step === 0 && st.source === defaultSource && !st.forks && !from)) store.removeItem(TAB_STATE);
    else store.setItem(TAB_STATE, JSON.stringify({ ...st, from } satisfies TabState));
  } catch {
    // storage full or disabled: a reload starts afresh, as it did
  }
}

/** A kept run, and the share link the tab was opened from ("" for none). */
export type TabState = ShareState & { from?: string };

/** The saved run, if any and well-formed. */
export function readTab(store: KeyValue): TabState | null {
  try {
    const raw = store.getItem(TAB_STATE);
    const v = raw ? (JSON.parse(raw) as Partial<ShareState>) : null;
    if (!v || typeof v.source !== 'string' || !Array.isArray(v.actions) || typeof v.step !== 'number' || v.step < 0) return null;
    if (!v.actions.every((a) => typeof a?.step === 'number' && typeof a.action === 'object' && a.action !== null)) return null;
    // Saved by another build, a comparison it cannot read is dropped, not the run.
    if (v.forks !== undefined) {
      const forks = validForks(v.forks, v.actions.length);
      if (forks) v.forks = forks;
      else delete v.forks;
    }
    return v as TabState;
  } catch {
    return null;
  }
}
