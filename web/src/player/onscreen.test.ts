import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Deferred, Onscreen } from './onscreen';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Panels (a and b unless named), a in view and the others not, counting their renders. */
function setup(names = ['a', 'b']) {
  const shown = new Set<string>(['a']);
  const el = (name: string) => ({ name }) as unknown as Element;
  const renders: string[] = [];
  const panels = new Map(names.map((n) => [n, { el: el(n), render: () => renders.push(n) }]));
  const onscreen = { inView: (e: Element) => shown.has((e as unknown as { name: string }).name) };
  return { shown, renders, d: new Deferred(onscreen, panels, 100) };
}

it('renders the panels in view at once and the others once the delay has passed', () => {
  const { renders, d } = setup();
  d.render();
  expect(renders).toEqual(['a']);
  expect(d.pending).toBe(true);
  vi.advanceTimersByTime(99);
  expect(renders).toEqual(['a']);
  vi.advanceTimersByTime(1);
  expect(renders).toEqual(['a', 'b']);
  expect(d.pending).toBe(false);
});

it('renders a panel out of view at most once per delay however often the view changes (playing)', () => {
  const { renders, d } = setup();
  for (let i = 0; i < 10; i++) {
    d.render();
    vi.advanceTimersByTime(16);
  }
  // 160 ms of frames: "a" every frame, "b" once, at 100 ms.
  expect(renders.filter((r) => r === 'a')).toHaveLength(10);
  expect(renders.filter((r) => r === 'b')).toHaveLength(1);
});

it('flush renders what is stale now (a panel scrolled into view) and cancels the timer', () => {
  const { shown, renders, d } = setup();
  d.render();
  shown.add('b');
  d.flush();
  expect(renders).toEqual(['a', 'b']);
  vi.advanceTimersByTime(500);
  expect(renders).toEqual(['a', 'b']);
  d.render(); // both in view now: nothing left for later
  expect(renders).toEqual(['a', 'b', 'a', 'b']);
  expect(d.pending).toBe(false);
});

it('renders the stale panels one per task, so that a message between them waits for one render only', () => {
  const { renders, d } = setup(['a', 'b', 'c']);
  d.render();
  expect(renders).toEqual(['a']);
  // The delay's timer renders one panel and leaves the next to a timer of its own.
  vi.advanceTimersToNextTimer();
  expect(renders).toHaveLength(2);
  expect(d.pending).toBe(true);
  vi.advanceTimersToNextTimer();
  expect(renders).toHaveLength(3);
  expect(renders.slice(1).sort()).toEqual(['b', 'c']);
  expect(d.pending).toBe(false);
});

it('a panel rendered in a round and stale again waits for the next delay, however often the view changes during the round', () => {
  const { renders, d } = setup(['a', 'b', 'c']);
  const count = (n: string) => renders.filter((r) => r === n).length;
  d.render();
  vi.advanceTimersToNextTimer(); // the delay: the round is b, c; b renders
  const first = renders.at(-1)!;
  const second = first === 'b' ? 'c' : 'b';
  d.render(); // the next step, during the round: a renders, both are stale again
  vi.advanceTimersToNextTimer(); // the round goes on: the other one renders
  expect(count(first)).toBe(1);
  expect(count(second)).toBe(1);
  d.render();
  vi.advanceTimersByTime(99);
  expect(count(first)).toBe(1);
  expect(count(second)).toBe(1);
  vi.advanceTimersByTime(1); // the next round begins
  expect(count(first) + count(second)).toBe(3);
  vi.advanceTimersByTime(1);
  expect(count(first)).toBe(2);
  expect(count(second)).toBe(2);
  expect(d.pending).toBe(false);
});

it('Onscreen: panels that scroll into view together are all in view, and the callback runs once', () => {
  // A stand-in for the browser's observer: the test delivers its entries.
  let deliver: (entries: { target: Element; isIntersecting: boolean }[]) => void = () => {};
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(cb: typeof deliver) {
        deliver = cb;
      }
      observe(): void {}
    },
  );
  try {
    const [a, b] = [{}, {}] as Element[];
    let calls = 0;
    const o = new Onscreen([a!, b!], () => calls++);
    expect(o.inView(a!) && o.inView(b!)).toBe(true); // no answer yet: in view
    deliver([{ target: a!, isIntersecting: false }, { target: b!, isIntersecting: false }]);
    expect(o.inView(a!) || o.inView(b!)).toBe(false);
    expect(calls).toBe(0);
    deliver([{ target: a!, isIntersecting: true }, { target: b!, isIntersecting: true }]);
    expect(o.inView(a!) && o.inView(b!)).toBe(true);
    expect(calls).toBe(1);
  } finally {
    vi.unstubAllGlobals();
  }
});
