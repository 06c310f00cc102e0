import { describe, expect, it } from 'vitest';
import { KeyedList } from './dom';

/**
 * Just enough of an Element for KeyedList (the unit tests run in Node, with
 * no DOM): children in order, insertBefore and remove, and a log of every
 * element that was moved (inserted while it already had a parent), which a
 * browser does by removing it first and which takes its focus away.
 */
class FakeElement {
  parent: FakeElement | null = null;
  readonly children: FakeElement[] = [];
  constructor(
    readonly name: string,
    readonly log: { moved: string[]; inserted: string[]; removed: string[] },
  ) {}
  get firstElementChild(): FakeElement | null {
    return this.children[0] ?? null;
  }
  get nextElementSibling(): FakeElement | null {
    const sibs = this.parent?.children ?? [];
    return sibs[sibs.indexOf(this) + 1] ?? null;
  }
  insertBefore(el: FakeElement, before: FakeElement | null): FakeElement {
    if (el.parent) {
      this.log.moved.push(el.name);
      el.parent.children.splice(el.parent.children.indexOf(el), 1);
    } else this.log.inserted.push(el.name);
    const at = before ? this.children.indexOf(before) : this.children.length;
    this.children.splice(at, 0, el);
    el.parent = this;
    return el;
  }
  remove(): void {
    if (!this.parent) return;
    this.log.removed.push(this.name);
    this.parent.children.splice(this.parent.children.indexOf(this), 1);
    this.parent = null;
  }
}

function list() {
  const log = { moved: [] as string[], inserted: [] as string[], removed: [] as string[] };
  const root = new FakeElement('root', log);
  const rows = new KeyedList<number, Element>(
    root as unknown as Element,
    (n) => String(n),
    (n) => new FakeElement(String(n), log) as unknown as Element,
    () => {},
  );
  const order = () => root.children.map((c) => c.name);
  const reset = () => {
    log.moved.length = 0;
    log.inserted.length = 0;
    log.removed.length = 0;
  };
  return { log, root, rows, order, reset };
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('KeyedList', () => {
  it('slides a window by one row with one removal and one insertion, moving no survivor', () => {
    const { log, rows, order, reset } = list();
    rows.set(range(0, 80));
    reset();
    rows.set(range(1, 80));
    expect(order()).toEqual(range(1, 80).map(String));
    expect(log).toEqual({ moved: [], inserted: ['80'], removed: ['0'] });
    reset();
    // and back
    rows.set(range(0, 80));
    expect(order()).toEqual(range(0, 80).map(String));
    expect(log).toEqual({ moved: [], inserted: ['0'], removed: ['80'] });
  });

  it('never moves a row that stays in place (a focused step button keeps its focus)', () => {
    const { log, rows, root, reset } = list();
    rows.set(range(0, 80));
    const focused = root.children[40]!;
    reset();
    for (let from = 1; from <= 30; from++) rows.set(range(from, 80));
    expect(log.moved).toEqual([]);
    expect(focused.parent).toBe(root);
  });

  it('reorders, adds and drops rows, keeping the first of duplicate keys', () => {
    const { rows, order } = list();
    rows.set([1, 2, 3, 4]);
    rows.set([4, 2, 5, 2, 1]);
    expect(order()).toEqual(['4', '2', '5', '1']);
    expect(rows.size).toBe(4);
    rows.set([]);
    expect(order()).toEqual([]);
    expect(rows.size).toBe(0);
  });
});
