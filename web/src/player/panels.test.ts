import { expect, it } from 'vitest';
import type { DeploymentView } from '../types';
import { deleting, foldLegendInShortWindows, nodesText, nodeState, renderBudget } from './panels';

it('renderBudget shows the bounds beside the sums of the ReplicaSets, flagging the ones outside', () => {
  // No DOM in these tests: just what renderBudget touches.
  const attrs = new Map<string, string>();
  const el = {
    firstChild: null,
    lastChild: null,
    textContent: '',
    hidden: false,
    hasAttribute: (n: string) => attrs.has(n),
    getAttribute: (n: string) => attrs.get(n) ?? null,
    setAttribute: (n: string, v: string) => void attrs.set(n, v),
    removeAttribute: (n: string) => void attrs.delete(n),
  } as unknown as HTMLElement;
  const rs = (desired: number, available: number) => ({ rs: { namespace: 'default', name: `r${desired}`, desired, current: desired, ready: available, available, images: null } });
  const d = { namespace: 'default', name: 'web', replicas: 10, strategy: 'RollingUpdate', status: { replicas: 11, updated: 3, ready: 8, available: 7, unavailable: 3 }, budget: { maxSurge: 3, maxUnavailable: 2 } } as unknown as DeploymentView;
  renderBudget(el, d, [rs(3, 0), rs(8, 7)]);
  expect(el.textContent).toBe('max replicas 10 + 3 = 13 (now 11) · min available 10 − 2 = 8 (now 7)');
  expect(el.hasAttribute('data-under')).toBe(true);
  expect(el.hasAttribute('data-over')).toBe(false);
  renderBudget(el, d, [rs(6, 0), rs(8, 8)]);
  expect(el.hasAttribute('data-over')).toBe(true);
  expect(el.hasAttribute('data-under')).toBe(false);
  // Recreate: no budget, nothing shown.
  renderBudget(el, { ...d, strategy: 'Recreate', budget: undefined } as unknown as DeploymentView, [rs(3, 0)]);
  expect(el.hidden).toBe(true);
  expect(el.textContent).toBe('');
});

it('foldLegendInShortWindows folds the legend while the window is short, until the reader chooses', () => {
  // No DOM here: a details element and a media query list, faked.
  const listeners: Record<string, () => void> = {};
  const summary = { addEventListener: (type: string, f: () => void) => (listeners[`summary-${type}`] = f) };
  const fold = { open: true, querySelector: () => summary } as unknown as HTMLDetailsElement;
  const short = { matches: true, addEventListener: (type: string, f: () => void) => (listeners[`mq-${type}`] = f) } as unknown as MediaQueryList & { matches: boolean };
  const fire = (name: string) => {
    const f = listeners[name];
    if (!f) throw new Error(`no ${name} listener`);
    f();
  };
  foldLegendInShortWindows(fold, short);
  expect(fold.open).toBe(false); // 800x500
  (short as { matches: boolean }).matches = false;
  fire('mq-change');
  expect(fold.open).toBe(true); // grown to 1280x720
  (short as { matches: boolean }).matches = true;
  fire('mq-change');
  expect(fold.open).toBe(false);
  // The reader opens it in the short window: it stays as they left it.
  fire('summary-click');
  fold.open = true;
  (short as { matches: boolean }).matches = false;
  fire('mq-change');
  (short as { matches: boolean }).matches = true;
  fire('mq-change');
  expect(fold.open).toBe(true);
});

it('nodeState: a failed node is "not responding" while the API still has it Ready, then NotReady', () => {
  expect(nodeState({ name: 'node-1', ready: true, pods: 2 })).toBe('');
  expect(nodeState({ name: 'node-2', ready: true, down: true, pods: 3 })).toBe(' (not responding, API: Ready)');
  expect(nodeState({ name: 'node-2', ready: false, down: true, pods: 3 })).toBe(' (NotReady)');
});

it('deleting names the finalizers an object being deleted waits on', () => {
  expect(deleting({})).toBe('');
  expect(deleting({ deleting: true })).toBe(' (deleting)');
  expect(deleting({ deleting: true, finalizers: ['foregroundDeletion'] })).toBe(' (deleting; waits on finalizer foregroundDeletion)');
});

it('nodesText lists the nodes in trouble first, the others in their order', () => {
  const n = (name: string, pods: number, ready = true, down = false) => ({ name, pods, ready, down });
  expect(nodesText([n('node-1', 4), n('node-2', 1), n('node-3', 3, true, true)])).toBe('Nodes — node-3 (not responding, API: Ready): 3 pods · node-1: 4 pods · node-2: 1 pod');
  expect(nodesText([])).toBe('');
});
