import { describe, expect, it } from 'vitest';
import { KeyedList, patchChildren, setText } from './dom';

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

  it('tells of each element it removes, once it is out of the container (the cluster view gives its canvas back then)', () => {
    const log = { moved: [] as string[], inserted: [] as string[], removed: [] as string[] };
    const root = new FakeElement('root', log);
    const told: [string, boolean][] = [];
    const rows = new KeyedList<number, Element>(
      root as unknown as Element,
      (n) => String(n),
      (n) => new FakeElement(String(n), log) as unknown as Element,
      () => {},
      (el) => told.push([(el as unknown as FakeElement).name, (el as unknown as FakeElement).parent === null]),
    );
    rows.set([1, 2, 3]);
    rows.set([2, 4]);
    expect(told).toEqual([
      ['1', true],
      ['3', true],
    ]);
    rows.set([]);
    expect(told.map(([n]) => n)).toEqual(['1', '3', '2', '4']);
  });
});

/**
 * Just enough of the DOM for patchChildren and setText: elements with
 * attributes and child nodes, text nodes, and a log of every write.
 */
class FakeNode {
  readonly childNodes: FakeNode[] = [];
  private readonly attrs = new Map<string, string>();
  constructor(
    readonly nodeType: 1 | 3,
    readonly nodeName: string,
    private value: string | null,
    readonly writes: string[],
  ) {}
  get nodeValue(): string | null {
    return this.value;
  }
  set nodeValue(v: string | null) {
    this.writes.push(`text ${v}`);
    this.value = v;
  }
  get firstChild(): FakeNode | null {
    return this.childNodes[0] ?? null;
  }
  get lastChild(): FakeNode | null {
    return this.childNodes.at(-1) ?? null;
  }
  get textContent(): string {
    return this.nodeType === 3 ? (this.value ?? '') : this.childNodes.map((c) => c.textContent).join('');
  }
  set textContent(v: string) {
    this.writes.push(`textContent ${v}`);
    this.childNodes.length = 0;
    if (v) this.childNodes.push(new FakeNode(3, '#text', v, this.writes));
  }
  get attributes(): { name: string; value: string }[] {
    return [...this.attrs].map(([name, value]) => ({ name, value }));
  }
  hasAttribute(n: string): boolean {
    return this.attrs.has(n);
  }
  getAttribute(n: string): string | null {
    return this.attrs.get(n) ?? null;
  }
  setAttribute(n: string, v: string): void {
    this.writes.push(`set ${n}=${v}`);
    this.attrs.set(n, v);
  }
  removeAttribute(n: string): void {
    this.writes.push(`remove ${n}`);
    this.attrs.delete(n);
  }
  appendChild(c: FakeNode): void {
    this.writes.push(`append ${c.nodeName}`);
    this.childNodes.push(c);
  }
  replaceChild(c: FakeNode, old: FakeNode): void {
    this.writes.push(`replace ${old.nodeName} by ${c.nodeName}`);
    this.childNodes[this.childNodes.indexOf(old)] = c;
  }
  removeChild(c: FakeNode): void {
    this.writes.push(`drop ${c.nodeName}`);
    this.childNodes.splice(this.childNodes.indexOf(c), 1);
  }
}

describe('patchChildren', () => {
  const writes: string[] = [];
  const el = (tag: string, attrs: Record<string, string>, ...kids: (FakeNode | string)[]) => {
    const e = new FakeNode(1, tag.toUpperCase(), null, writes);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    for (const k of kids) e.childNodes.push(typeof k === 'string' ? new FakeNode(3, '#text', k, writes) : k);
    return e;
  };
  const patch = (root: FakeNode, next: FakeNode[]) => {
    writes.length = 0;
    patchChildren(root as unknown as Node, next as unknown as Node[]);
    return [...writes];
  };

  it('keeps the nodes in place and writes only what differs', () => {
    const root = el('div', {});
    root.childNodes.push(el('p', { class: 'q-line' }, 'queue: a'), el('p', { class: 'q-dirty' }, 'dirty: —'));
    const [first, second] = root.childNodes;
    const done = patch(root, [el('p', { class: 'q-line' }, 'queue: a → b'), el('p', { class: 'q-dirty' }, 'dirty: —')]);
    expect(done).toEqual(['text queue: a → b']);
    expect(root.childNodes[0]).toBe(first);
    expect(root.childNodes[1]).toBe(second);
    expect(patch(root, [el('p', { class: 'q-line' }, 'queue: a → b'), el('p', { class: 'q-dirty' }, 'dirty: —')])).toEqual([]);
  });

  it('adds, drops and replaces children; attributes follow', () => {
    const root = el('div', {});
    root.childNodes.push(el('p', { class: 'a', title: 'x' }, 'one'), el('p', {}, 'two'), el('p', {}, 'three'));
    const done = patch(root, [el('p', { class: 'b' }, 'one'), el('ul', {}, el('li', {}, 'two'))]);
    expect(done).toEqual(['remove title', 'set class=b', 'replace P by UL', 'drop P']);
    expect(root.textContent).toBe('onetwo');
    expect(patch(root, [el('p', { class: 'b' }, 'one'), el('ul', {}, el('li', {}, 'two'), el('li', {}, 'more'))])).toEqual(['append LI']);
    expect(root.textContent).toBe('onetwomore');
  });

  it('leaves a <details> the reader opened open', () => {
    const root = el('div', {});
    root.childNodes.push(el('details', { open: '' }, el('summary', {}, 'why')));
    expect(patch(root, [el('details', {}, el('summary', {}, 'why'))])).toEqual([]);
    expect(patch(root, [el('p', { title: 't' }, 'x')])).toEqual(['replace DETAILS by P']);
  });
});

describe('setText', () => {
  it('writes into the one text node an element holds, and only when the text differs', () => {
    const writes: string[] = [];
    const p = new FakeNode(1, 'P', null, writes);
    setText(p as unknown as Element, 'step 1');
    const node = p.firstChild;
    setText(p as unknown as Element, 'step 2');
    setText(p as unknown as Element, 'step 2');
    expect(p.firstChild).toBe(node);
    expect(writes).toEqual(['textContent step 1', 'text step 2']);
    setText(p as unknown as Element, '');
    expect(p.childNodes).toEqual([]);
  });
});
