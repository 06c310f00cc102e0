// Small DOM helpers: element creation and keyed list updates, so a step
// touches only the elements whose data changed.

type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;
type Child = Node | string | null | undefined | false;

/**
 * Creates an element. Attributes named on* are listeners; `class` and
 * `text` are shorthands; false/null/undefined attributes are skipped.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = String(v);
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/**
 * Sets textContent only when it differs (avoids layout work). An element
 * holding one text node keeps it and gets the new text in it: replacing the
 * node would make the browser drop its layout object and build another.
 */
export function setText(el: Element, text: string): void {
  const only = el.firstChild;
  if (text !== '' && only !== null && only === el.lastChild && only.nodeType === 3) {
    if (only.nodeValue !== text) only.nodeValue = text;
    return;
  }
  if (el.textContent !== text) el.textContent = text;
}

/** Sets className only when it differs. */
export function setClass(el: Element, cls: string): void {
  if (el.className !== cls) el.className = cls;
}

/** Sets or removes an attribute only when it differs. */
export function setAttr(el: Element, name: string, value: string | null): void {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/**
 * Keeps the children of a container in step with a list of items, by key:
 * existing elements are updated in place and moved only when out of order,
 * new ones created, missing ones removed.
 */
export class KeyedList<T, E extends Element = HTMLElement> {
  private readonly els = new Map<string, E>();

  constructor(
    private readonly container: Element,
    private readonly key: (item: T) => string,
    private readonly create: (item: T) => E,
    private readonly update: (el: E, item: T) => void,
    /** Called for each element removed (its key is gone), after it left the container. */
    private readonly removed?: (el: E) => void,
  ) {}

  /** The number of items shown. */
  get size(): number {
    return this.els.size;
  }

  /** The element of a key, if shown. */
  get(key: string): E | undefined {
    return this.els.get(key);
  }

  /**
   * Renders items in order. Rows whose keys are gone are removed before the
   * others are placed, so that a window sliding by one row costs one removal
   * and one insertion: placing first would find a row that is about to go
   * ahead of every survivor and move them all (which also takes the focus
   * from a focused row, as moving an element does).
   */
  set(items: readonly T[]): void {
    const keys = new Map<string, T>();
    for (const item of items) {
      const k = this.key(item);
      if (!keys.has(k)) keys.set(k, item);
    }
    for (const [k, el] of this.els) {
      if (!keys.has(k)) {
        el.remove();
        this.els.delete(k);
        this.removed?.(el);
      }
    }
    let cursor: Element | null = this.container.firstElementChild;
    for (const [k, item] of keys) {
      let el = this.els.get(k);
      if (!el) {
        el = this.create(item);
        this.els.set(k, el);
      }
      this.update(el, item);
      if (el !== cursor) this.container.insertBefore(el, cursor);
      else cursor = cursor.nextElementSibling;
    }
  }
}

/**
 * Makes root's children look like `next` (freshly built nodes, not in the
 * document) while keeping the nodes already there: an element of the same
 * tag at the same position gets the new attributes and, recursively, the
 * new children; a text node gets the new text. Only what differs is
 * written, so a panel rebuilt every step from its few rows (queues,
 * expectations) changes the page only where a row changed, and the browser
 * restyles and lays out only that. For plain markup: listeners and
 * properties of the new nodes are not carried over (an element that is
 * replaced brings its own).
 */
export function patchChildren(root: Node, next: readonly Node[]): void {
  const have = root.childNodes;
  for (let i = 0; i < next.length; i++) {
    const want = next[i]!;
    const old = have[i];
    if (!old) {
      root.appendChild(want);
      continue;
    }
    if (!patchNode(old, want)) root.replaceChild(want, old);
  }
  while (have.length > next.length) root.removeChild(root.lastChild!);
}

/** Brings old up to date with want in place; false when it cannot (another kind of node). */
function patchNode(old: Node, want: Node): boolean {
  if (old.nodeType !== want.nodeType || old.nodeName !== want.nodeName) return false;
  if (old.nodeType !== 1) {
    if (old.nodeValue !== want.nodeValue) old.nodeValue = want.nodeValue;
    return true;
  }
  const o = old as Element;
  const w = want as Element;
  for (let i = o.attributes.length - 1; i >= 0; i--) {
    const name = o.attributes[i]!.name;
    // A <details> the reader opened stays open: that is their state, not the markup's.
    if (!w.hasAttribute(name) && !(name === 'open' && o.nodeName === 'DETAILS')) o.removeAttribute(name);
  }
  for (const a of Array.from(w.attributes)) if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
  patchChildren(o, Array.from(w.childNodes));
  return true;
}

/** Formats virtual nanoseconds as "+12.345s". */
export function formatOffset(ns: number): string {
  return `+${(ns / 1e9).toFixed(3)}s`;
}
