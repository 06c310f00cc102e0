// /embed.js: turns `<rollout-lab ...>` and `<div data-rollout-lab ...>` into
// live players. Options are attributes (see options.ts); the scenario is a
// library id or same-origin URL (`scenario="rollback"`), or inline YAML in a
// child `<script type="text/yaml">` (or `<template>`).
//
// On the app's own origin the players are mounted in the page (one wasm
// download and compile for all of them). From another origin a Worker cannot
// be started from our script, so each element gets an iframe of /embed.
import { elementOptions, isLibraryID, pageTheme, parseOptions, themeHost } from './options';

const scriptURL = new URL(import.meta.url);
const sameOrigin = scriptURL.origin === location.origin;

const SOURCE_NODES = 'script[type="text/yaml"], script[type="application/yaml"], script[type="application/x-yaml"], template';

/** Inline scenario text inside the element, if any. */
function inlineSource(el: Element): string | null {
  const node = el.querySelector(SOURCE_NODES);
  if (!node) return null;
  const text = node instanceof HTMLTemplateElement ? node.content.textContent : node.textContent;
  return text && text.trim() ? dedent(text) : null;
}

/**
 * Removes the indentation an HTML author gives the YAML block: the leading
 * spaces and tabs every non-blank line shares (a page indented with tabs
 * gave "found a tab character that violates indentation").
 *
 *   dedent('\n\t\tkind: A\n\t\tspec:\n\t\t  x: 1\n') → 'kind: A\nspec:\n  x: 1\n'
 */
export function dedent(text: string): string {
  const lines = text.replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n');
  let prefix: string | null = null;
  for (const l of lines) {
    if (!l.trim()) continue;
    const lead = /^[ \t]*/.exec(l)![0];
    if (prefix === null) prefix = lead;
    else {
      let i = 0;
      while (i < prefix.length && i < lead.length && prefix[i] === lead[i]) i++;
      prefix = prefix.slice(0, i);
    }
  }
  const n = prefix?.length ?? 0;
  return `${lines.map((l) => l.slice(Math.min(n, /^[ \t]*/.exec(l)![0].length))).join('\n')}\n`;
}

/**
 * Elements with a player, or one on its way. Not an attribute: a page that
 * saves an element's HTML and puts it back (tabs, routers) gets a new
 * element, which is mounted again.
 */
const mounted = new WeakSet<HTMLElement>();
/** The iframe of each element on another site (found by its window when it reports an error; the element may be in a shadow root). */
const frames = new Map<HTMLIFrameElement, HTMLElement>();
/** Mounted players by host element, so a removed element's engine is stopped. */
const players = new Map<HTMLElement, { dispose(): void }>();
/** The inline YAML of each element, as first read. */
const inlineSources = new WeakMap<HTMLElement, string>();
/** Counts the mounts of each element: a mount that a later one overtook while it loaded gives up. */
const mounts = new WeakMap<HTMLElement, number>();
/** The options an element is read for (attributes, or data- attributes). */
const OPTION_NAMES = ['scenario', 'panels', 'step', 'autoplay', 'notes', 'note', 'readonly', 'speed', 'lang', 'theme'];

async function upgrade(el: HTMLElement): Promise<void> {
  if (mounted.has(el)) return;
  const attrs0 = elementOptions(el);
  // An element upgraded while the page still loads (embed.js with async)
  // may not have its children yet, or only part of its YAML: without a
  // scenario attribute, wait for the page to be parsed.
  if (document.readyState === 'loading' && attrs0('scenario') === null && !inlineSources.has(el)) {
    document.addEventListener('DOMContentLoaded', () => void upgrade(el), { once: true });
    return;
  }
  mounted.add(el);
  const mount = (mounts.get(el) ?? 0) + 1;
  mounts.set(el, mount);
  const attrs = attrs0;
  // Read once and kept: a remount (an attribute changed) needs it again.
  const source = inlineSources.get(el) ?? inlineSource(el);
  if (source !== null) inlineSources.set(el, source);
  const opts = parseOptions((name) => (name === 'source' && source ? source : attrs(name)));
  if (sameOrigin) {
    const { mountPlayer } = await import('./mount');
    if (mounts.get(el) !== mount) return;
    players.set(el, mountPlayer(el, opts));
    return;
  }
  const q = new URLSearchParams();
  for (const name of OPTION_NAMES) {
    const v = attrs(name);
    if (v !== null) q.set(name, v);
  }
  // A scenario file of the docs site: the iframe, on our origin, may not
  // read it, so this page fetches it (relative to itself) and hands over
  // its text.
  const ref = q.get('scenario');
  if (!source && ref && !isLibraryID(ref)) {
    const url = new URL(ref, document.baseURI);
    try {
      const res = await fetch(url, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      q.set('source', await res.text());
      q.delete('scenario');
    } catch (e) {
      q.set('error', `Cannot fetch ${url.href}: ${(e as Error).message}`);
    }
    if (mounts.get(el) !== mount) return;
  }
  // Without a lang of its own the player follows the page's (the iframe
  // cannot read it): the nearest lang attribute, as CSS :lang() would.
  const pageLang = el.closest<HTMLElement>('[lang]')?.lang;
  if (!q.has('lang') && pageLang) q.set('lang', pageLang);
  // Nor the page's colours: without a theme of its own it takes the
  // page's (followTheme keeps it in step when the page switches).
  const theme = pageTheme(el);
  if (!q.has('theme') && theme) q.set('theme', theme);
  // The scenario's text goes in the fragment: it is never sent to a server
  // (no URL length limit, no logs).
  const text = source ?? q.get('source');
  q.delete('source');
  const frame = document.createElement('iframe');
  frame.src = new URL(`/embed?${q}${text ? `#${new URLSearchParams({ source: text })}` : ''}`, scriptURL).href;
  frame.title = `Rollout Lab: ${ref ?? 'scenario'}`;
  frame.loading = 'lazy';
  frame.className = 'rollout-lab-frame';
  frame.style.cssText = 'width:100%;height:100%;border:0;display:block';
  el.style.display ||= 'block';
  // 500px unless the page sized the element (its CSS or an inline style):
  // measured empty, as fallback text would give it a height of its own.
  // The inline YAML stays (scripts and templates are not drawn), so HTML
  // saved and put back by the page still has it; a frame of a player
  // before goes.
  for (const c of [...el.childNodes]) if (!(c instanceof Element && c.matches(SOURCE_NODES))) c.remove();
  if (!el.style.height && el.getBoundingClientRect().height < 1) el.style.height = '500px';
  el.append(frame);
  frames.set(frame, el);
  // A switch the page made while the frame loaded did not reach it.
  frame.addEventListener('load', () => {
    if (elementOptions(el)('theme') === null) frame.contentWindow?.postMessage({ type: 'rollout-lab-theme', theme: pageTheme(el) }, scriptURL.origin);
  });
}

/** Mounts el again with its options as they are now (an attribute changed after it was mounted). */
function remount(el: HTMLElement): void {
  if (!mounted.has(el)) return;
  players.get(el)?.dispose();
  players.delete(el);
  mounted.delete(el);
  mounts.set(el, (mounts.get(el) ?? 0) + 1);
  void upgrade(el);
}

class RolloutLabElement extends HTMLElement {
  static readonly observedAttributes = OPTION_NAMES;
  private remountDue = false;

  connectedCallback(): void {
    void upgrade(this);
  }

  /** A framework that sets the attributes after inserting the element, or changes them later: the player follows. */
  attributeChangedCallback(_name: string, old: string | null, now: string | null): void {
    if (old === now || !this.isConnected || !mounted.has(this) || this.remountDue) return;
    // Several attributes set in a row make one new player.
    this.remountDue = true;
    queueMicrotask(() => {
      this.remountDue = false;
      remount(this);
    });
  }
}

/** Stops the engines of players whose element left the document. */
function reap(): void {
  for (const [frame, el] of frames) if (!el.isConnected) frames.delete(frame);
  for (const [el, p] of players) {
    if (el.isConnected) continue;
    p.dispose();
    players.delete(el);
    mounted.delete(el);
  }
}

// An iframe player that cannot start tells this page: the same error event
// on its element, and the console, as a player of our own site gives.
window.addEventListener('message', (e: MessageEvent<{ type?: unknown; message?: unknown }>) => {
  if (e.origin !== scriptURL.origin || e.data?.type !== 'rollout-lab-error') return;
  const message = String(e.data.message);
  for (const [frame, el] of frames) {
    if (!frame.isConnected) {
      frames.delete(frame);
      continue;
    }
    if (frame.contentWindow !== e.source) continue;
    console.error(`Rollout Lab player${el.id ? ` #${el.id}` : ''}: ${message}`);
    el.dispatchEvent(new CustomEvent('rollout-lab-error', { detail: { message }, bubbles: true }));
  }
});

/**
 * Keeps the players without a theme of their own in the page's colours when
 * the page switches them (a docs theme toggle changes a class or an
 * attribute on <html> or <body>): an iframe is told, a player of our own
 * site styled through its element.
 */
function followTheme(): void {
  for (const [frame, el] of frames) {
    if (!frame.isConnected || elementOptions(el)('theme') !== null) continue;
    frame.contentWindow?.postMessage({ type: 'rollout-lab-theme', theme: pageTheme(el) }, scriptURL.origin);
  }
  for (const el of players.keys()) {
    if (elementOptions(el)('theme') === null) themeHost(el, pageTheme(el));
  }
}

// Any attribute of <html> or <body> (themes use class, data-theme,
// data-md-color-scheme...); and once more after a colour transition.
let themeAgain = 0;
const themeWatch = new MutationObserver(() => {
  followTheme();
  clearTimeout(themeAgain);
  themeAgain = window.setTimeout(followTheme, 500);
});
themeWatch.observe(document.documentElement, { attributes: true });
const watchBody = () => document.body && themeWatch.observe(document.body, { attributes: true });
if (document.body) watchBody();
else document.addEventListener('DOMContentLoaded', watchBody, { once: true });

if (!customElements.get('rollout-lab')) customElements.define('rollout-lab', RolloutLabElement);
const scan = () => document.querySelectorAll<HTMLElement>('[data-rollout-lab]').forEach((el) => void upgrade(el));
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan, { once: true });
else scan();
new MutationObserver(() => {
  reap();
  scan();
}).observe(document.documentElement, { childList: true, subtree: true });
