// Records what a share link must carry by watching the engine calls the app
// makes: the scenario loaded (source, name, seed), the user actions and the
// step each was made at, and the current step. It wraps an EngineClient, so
// the app needs no change to be shareable.
//
// Actions follow the engine's rule (engine/session Apply): an action is made
// at the current step, and it discards what was computed after that step,
// including actions recorded later in the run.
//
// The What if? comparison on screen comes from the page (forkPlan); the
// recorder adds to each of its runs how many of the actions had been made
// when it was forked, so that a restore forks it again at the same point
// of the replay. A comparison with a run forked from actions since
// discarded (an action made after a rewind) is no longer the run's and is
// left out.

import type { EngineClient } from '../engine';
import type { Result } from '../result';
import type { Snapshot, UserAction } from '../types';
import type { ForkPlan, ForkRun, RecordedAction, ShareState } from './codec';

export class ShareRecorder {
  readonly client: EngineClient;
  private source: string | null = null;
  private name = '';
  private seed: number | undefined;
  private actions: RecordedAction[] = [];
  private step = 0;
  /** A seed to add to the next load (restoring a link made with another seed). */
  private nextSeed: number | undefined;
  /** Per run of the comparison (B, C, D, in order): the actions as they were when it was forked. */
  private forkedWith: RecordedAction[][] = [];
  /** The comparison the page shows (the What if? room's plan); null when none. */
  forkPlan: () => ForkPlan<ForkRun> | null = () => null;

  constructor(inner: EngineClient) {
    this.client = {
      call: async <T>(method: string, args?: unknown): Promise<Result<T>> => {
        let sent = args;
        if (method === 'load' && this.nextSeed !== undefined && typeof args === 'object' && args !== null) {
          sent = { ...args, seed: this.nextSeed };
          this.nextSeed = undefined;
        }
        const before = this.step;
        const r = await inner.call<T>(method, sent);
        if (r.ok) this.observe(method, sent, r.value as unknown, before);
        return r;
      },
    };
  }

  private observe(method: string, args: unknown, value: unknown, before: number): void {
    const view = (value as Partial<Snapshot> | null)?.view;
    const a = (args ?? {}) as { source?: string; name?: string; action?: UserAction; label?: string };
    if (method === 'load' && view) {
      this.source = a.source ?? null;
      this.name = a.name ?? '';
      this.seed = view.seed;
      this.actions = [];
      this.forkedWith = [];
    } else if (method === 'fork') {
      // B starts a comparison; C and D are added to it.
      if ((a.label ?? 'B') === 'B') this.forkedWith = [];
      this.forkedWith.push([...this.actions]);
    } else if (method === 'act' && a.action) {
      this.actions = this.actions.filter((x) => x.step <= before);
      this.actions.push({ step: before, action: a.action });
    }
    if (view) this.step = view.step;
  }

  /** Makes the next load use this seed. */
  useSeed(seed: number | undefined): void {
    this.nextSeed = seed;
  }

  /** The state to share, or null before a scenario is loaded. */
  state(lang?: string): ShareState | null {
    if (this.source === null) return null;
    const s: ShareState = { source: this.source, actions: this.actions.map((x) => ({ ...x })), step: this.step };
    if (this.name) s.name = this.name;
    if (this.seed !== undefined) s.seed = this.seed;
    if (lang) s.lang = lang;
    const plan = this.forkPlan();
    const made = this.forkedWith;
    const stillMade = (before: RecordedAction[]) => before.every((x, i) => this.actions[i] === x);
    if (plan && plan.runs.length === made.length && made.every(stillMade)) {
      s.forks = { atStep: plan.atStep, runs: plan.runs.map((r, i) => ({ ...r, afterActions: made[i]!.length })) };
    }
    return s;
  }
}
