import { describe, expect, it } from 'vitest';
import { movedWithPods, podsSince, withPods } from './podlist';
import type { PodView, Snapshot, View } from './types';

const pod = (name: string): PodView => ({ namespace: 'default', name, owner: 'rs', node: 'node-1', phase: 'Running', status: 'Running', ready: true, available: true, terminating: false, restarts: 0, image: 'nginx' }) as PodView;
const view = (step: number, token: string, pods: PodView[] | null, same = false): View => ({ step, podsToken: token, pods, podsSame: same }) as unknown as View;

describe('podsSince', () => {
  it('passes the token of the view shown, and nothing without one', () => {
    expect(podsSince(view(3, '0.12.5.150', [pod('a')]))).toEqual({ podsSince: '0.12.5.150' });
    expect(podsSince(null)).toEqual({});
    expect(podsSince({ step: 0 } as View)).toEqual({});
  });
});

describe('withPods', () => {
  it('keeps a view that lists its pods', () => {
    const next = view(4, 't2', [pod('b')]);
    expect(withPods(next, view(3, 't1', [pod('a')]))).toBe(next);
  });
  it("puts back the pods of the view shown when the engine left them out", () => {
    const shown = view(3, 't1', [pod('a'), pod('b')]);
    const got = withPods(view(4, 't1', null, true), shown);
    expect(got?.step).toBe(4);
    expect(got?.pods).toBe(shown.pods);
    expect(got?.podsSame).toBe(false);
  });
  it('asks again when the view shown is another (an answer applied meanwhile)', () => {
    expect(withPods(view(5, 't1', null, true), view(4, 't2', [pod('c')]))).toBeNull();
    expect(withPods(view(5, 't1', null, true), null)).toBeNull();
  });
});

describe('movedWithPods', () => {
  it('puts back the pods held, and asks again only when the view shown is not theirs', async () => {
    const shown = view(3, 't1', [pod('a')]);
    let asked = 0;
    const ask = async (): Promise<Snapshot> => {
      asked++;
      return { view: view(6, 't3', [pod('z')]) } as Snapshot;
    };
    const same = await movedWithPods({ view: view(4, 't1', null, true), steps: [] } as unknown as Snapshot, () => shown, ask);
    expect(same?.view.pods).toBe(shown.pods);
    expect(asked).toBe(0);
    const other = await movedWithPods({ view: view(5, 't1', null, true), steps: [] } as unknown as Snapshot, () => view(4, 't2', [pod('c')]), ask);
    expect(asked).toBe(1);
    expect(other?.view.step).toBe(6);
    expect(other?.view.pods?.[0]?.name).toBe('z');
    expect(await movedWithPods(null, () => shown, ask)).toBeNull();
  });
});
