// Most steps write no pod (an informer's delivery, a sync with nothing to
// do), so the calls that move the engine ("advance", "seek") pass the pods
// token of the view shown (podsSince) and the engine leaves the pods out
// when they are the same (podsSame): at 1,000 replicas that is most of a
// view's bytes, and of its cost to build, encode, send and parse.

import type { Snapshot, View } from './types';

/**
 * The arguments of a move that may leave the pods out: podsSince is the
 * token of the view shown, if any.
 */
export function podsSince(shown: View | null): { podsSince?: string } {
  return shown?.podsToken ? { podsSince: shown.podsToken } : {};
}

/**
 * next with its pods: as given, or, when the engine left them out, those of
 * the view shown when next is applied, if it has the same token. null when
 * it does not (another answer was applied meanwhile): the view must be
 * asked for again. The view shown then, not the one podsSince came from:
 * answers come in the order of the calls, so a load answered in between
 * (another session, whose tokens may repeat the old one's) is the view
 * shown by then.
 */
export function withPods(next: View, shown: View | null): View | null {
  if (!next.podsSame) return next;
  if (!shown || shown.podsToken !== next.podsToken) return null;
  return { ...next, pods: shown.pods, podsSame: false };
}

/**
 * The answer to a move with its pods (withPods against the view shown
 * now); when they were left out and that view is not theirs, the view is
 * asked for again (ask: the engine's "view"). null when a call failed.
 */
export async function movedWithPods(s: Snapshot | null, shown: () => View | null, ask: () => Promise<Snapshot | null>): Promise<Snapshot | null> {
  if (!s) return null;
  const v = withPods(s.view, shown());
  if (v) return { ...s, view: v };
  const again = await ask();
  return again ? { ...s, view: again.view } : null;
}
