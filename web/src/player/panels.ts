// The panels: each takes the current view (and what it needs besides) and
// updates its part of the page. The cluster view is keyed so a step touches
// only what changed; the small panels are rebuilt from their few rows.

import { type Claims, podsByOwner, podState } from '../diff';
import { formatOffset, h, KeyedList, patchChildren, setAttr, setClass, setText } from '../dom';
import { t } from '../i18n';
import '../i18n/player';
import type { MathBlock, MathTable } from '../math';
import { fnLink, withLinks } from './sources';
import type { DeploymentView, NodeView, PodView, ReplicaSetView, StepInfo, TraceRecord, View } from '../types';
import { firstAtOrAfter, windowAround } from './history';
import { list } from '../types';
import { countedRuns, countedTotal, SquareCanvas } from './squares';

/** Pod squares drawn per ReplicaSet; the rest are counted. */
export const MAX_SQUARES = 240;

// ---------------------------------------------------------------- cluster

interface RSGroup {
  rs: ReplicaSetView | null;
  /** namespace/name: same-named ReplicaSets of two namespaces are two groups. */
  key: string;
  /** What is shown: the name, with its namespace when the view has several. */
  name: string;
  pods: PodView[];
}
interface DeployGroup {
  d: DeploymentView | null;
  /** namespace/name, as RSGroup's. */
  key: string;
  name: string;
  groups: RSGroup[];
}

function revNum(rs: ReplicaSetView | null): number {
  return rs?.revision ? Number(rs.revision) : -1;
}

/**
 * Gives back the canvas of a ReplicaSet's element taken off the page (see
 * squares.ts): at once, not when its ResizeObserver would notice, which it
 * never does for an element removed while hidden.
 */
function releaseSquares(rs: Element): void {
  (rs as unknown as { canvas?: SquareCanvas }).canvas?.detach();
}

/** The cluster view: Deployments containing ReplicaSets containing pods. */
export class ClusterPanel {
  private readonly deploys: KeyedList<DeployGroup>;
  private claims: Claims = { adopted: new Set(), released: new Set() };
  private openPods = new Set<string>();
  /** The ReplicaSets of a Deployment that has several, by key: its newest is 'new', the others 'old'. A Deployment's only ReplicaSet is in neither. */
  private ages = new Map<string, 'new' | 'old'>();
  /** True when the view listed only some pods (the engine's maxPods cap). */
  private truncated = false;

  constructor(private readonly root: HTMLElement, private readonly nodesEl: HTMLElement) {
    root.textContent = '';
    this.deploys = new KeyedList<DeployGroup>(
      root,
      (g) => g.key,
      (g) => this.createDeploy(g),
      (el, g) => this.updateDeploy(el, g),
      // A Deployment gone (or every one, on relabel): its ReplicaSets' canvases go back for the next ones.
      (el) => el.querySelectorAll('.rs').forEach((rs) => releaseSquares(rs)),
    );
  }

  /** Drops the drawn elements so the next render rebuilds them (after a language switch). */
  relabel(): void {
    this.deploys.set([]);
  }

  /** Renders the view; maxPods is the cap the view was requested with. */
  render(v: View, claims: Claims, maxPods: number): void {
    this.claims = claims;
    this.truncated = maxPods > 0 && list(v.pods).length >= maxPods;
    // A large run's squares stand for counts and change by the hundred: they
    // change colour at once (style.css), without a transition or entry
    // animation each, which kept the page's main thread busy for the 0.35 s
    // after every step or seek.
    setAttr(this.root, 'data-large', this.truncated ? '' : null);
    // Objects are told apart by namespace and name (kubectl get -A of two
    // namespaces with a Deployment "web" each); names show their namespace
    // when the view has several.
    const byOwner = podsByOwner(list(v.pods));
    const namespaces = new Set([...list(v.deployments), ...list(v.replicaSets), ...list(v.pods)].map((o) => o.namespace));
    const shown = (ns: string, name: string) => (namespaces.size > 1 ? `${ns}/${name}` : name);
    const deploys = new Map<string, DeployGroup>();
    for (const d of list(v.deployments)) deploys.set(`${d.namespace}/${d.name}`, { d, key: `${d.namespace}/${d.name}`, name: shown(d.namespace, d.name), groups: [] });
    const orphans: DeployGroup = { d: null, key: '', name: '', groups: [] };
    for (const rs of list(v.replicaSets)) {
      const key = `${rs.namespace}/${rs.name}`;
      const g: RSGroup = { rs, key, name: shown(rs.namespace, rs.name), pods: byOwner.get(key) ?? [] };
      byOwner.delete(key);
      const parent = rs.owner ? deploys.get(`${rs.namespace}/${rs.owner}`) : undefined;
      (parent ?? orphans).groups.push(g);
    }
    for (const [key, pods] of byOwner) {
      const cut = key.indexOf('/');
      const owner = key.slice(cut + 1);
      orphans.groups.push({ rs: null, key, name: owner ? `${shown(key.slice(0, cut), owner)} (gone)` : namespaces.size > 1 ? `${key.slice(0, cut)}: (no owner)` : '(no owner)', pods });
    }
    for (const g of deploys.values()) g.groups.sort((a, b) => revNum(b.rs) - revNum(a.rs) || a.name.localeCompare(b.name));
    this.ages.clear();
    for (const g of deploys.values()) {
      if (!g.groups[0]?.rs || g.groups.length < 2) continue;
      for (const [i, x] of g.groups.entries()) this.ages.set(x.key, i === 0 ? 'new' : 'old');
    }
    const all = [...deploys.values()];
    if (orphans.groups.length > 0) all.push(orphans);
    this.deploys.set(all);
    if (all.length === 0) this.root.dataset.empty = 'true';
    else delete this.root.dataset.empty;
    this.renderNodes(v);
  }

  private renderNodes(v: View): void {
    const text = nodesText(list(v.nodes));
    setText(this.nodesEl, text);
    // Presenter mode keeps the line to one line: the title has it whole.
    setAttr(this.nodesEl, 'title', text || null);
  }

  private createDeploy(g: DeployGroup): HTMLElement {
    const title = h('h3', { class: 'deploy-title' });
    const meta = h('p', { class: 'deploy-meta' });
    const budget = h('p', { class: 'deploy-budget' });
    const rsBox = h('div', { class: 'rs-list' });
    const el = h('article', { class: 'deploy', 'data-name': g.d?.name ?? '', 'data-namespace': g.d?.namespace ?? '', 'aria-label': g.d ? t('player.deployment', { name: g.name }) : t('player.objectsWithout') }, title, meta, budget, rsBox);
    const rsList = new KeyedList<RSGroup>(rsBox, (x) => x.key, (x) => this.createRS(x), (e, x) => this.updateRS(e, x), releaseSquares);
    (el as unknown as { rsList: KeyedList<RSGroup> }).rsList = rsList;
    return el;
  }

  private updateDeploy(el: HTMLElement, g: DeployGroup): void {
    const [title, meta, budget] = [el.children[0]!, el.children[1]!, el.children[2] as HTMLElement];
    const d = g.d;
    renderBudget(budget, d, g.groups);
    if (d) {
      setText(title, `${t('player.deployment', { name: g.name })}${d.paused ? ` ${t('player.paused')}` : ''}${deleting(d)}`);
      const strat = d.strategy === 'RollingUpdate' ? `RollingUpdate maxSurge ${d.maxSurge ?? '?'} maxUnavailable ${d.maxUnavailable ?? '?'}` : d.strategy;
      const prog = list(d.conditions).find((c) => c.type === 'Progressing');
      const metaText =
        `${t('player.deployMeta', { replicas: d.replicas, strategy: strat, revision: d.revision ?? '-', images: list(d.images).join(', ') })} · ${t('player.deployStatus', { total: d.status.replicas, updated: d.status.updated, ready: d.status.ready, available: d.status.available })}` +
        (prog ? ` · Progressing ${prog.status} ${prog.reason ?? ''}` : '');
      setText(meta, metaText);
      setAttr(meta as HTMLElement, 'title', metaText); // presenter mode shows one line of it
    } else {
      setText(title, t('player.noDeployment'));
      setText(meta, '');
    }
    (el as unknown as { rsList: KeyedList<RSGroup> }).rsList.set(g.groups);
  }

  private createRS(x: RSGroup): HTMLElement {
    const head = h('div', { class: 'rs-head' });
    const counts = h('div', { class: 'rs-counts' });
    const squares = h('div', { class: 'pods', role: 'img' });
    const more = h('span', { class: 'pods-more muted' });
    // Why pods of this ReplicaSet wait unscheduled (a rollout stalled by anti-affinity).
    const waiting = h('div', { class: 'rs-unschedulable', hidden: true });
    const details = h('details', { class: 'pod-details' }, h('summary', { text: t('player.podDetails') }), h('div', { class: 'pod-table' }));
    details.addEventListener('toggle', () => {
      if (details.open) this.openPods.add(x.key);
      else this.openPods.delete(x.key);
      const body = details.children[1] as HTMLElement;
      if (details.open) this.fillPodTable(body, (details as unknown as { pods: PodView[] }).pods ?? []);
      else body.textContent = '';
    });
    const el = h('div', { class: 'rs', 'data-name': x.rs?.name ?? x.name, 'data-namespace': x.rs?.namespace ?? '' }, head, counts, squares, more, waiting, details);
    const sq = new KeyedList<PodView, HTMLSpanElement>(
      squares,
      (p) => p.name,
      () => h('span', { class: 'pod' }),
      (e, p) => this.updatePod(e, p),
    );
    (el as unknown as { squares: KeyedList<PodView, HTMLSpanElement> }).squares = sq;
    (el as unknown as { canvas: SquareCanvas }).canvas = new SquareCanvas(squares);
    return el;
  }

  private updateRS(el: HTMLElement, x: RSGroup): void {
    const [head, counts, squares, more, waiting, details] = Array.from(el.children) as HTMLElement[];
    const rs = x.rs;
    if (rs) {
      // Per Deployment: another Deployment's rollout makes no ReplicaSet of this one old.
      const age = this.ages.get(x.key) ?? 'only';
      const badge = age === 'new' ? t('player.newest') : age === 'old' ? t('player.old') : '';
      el.dataset.age = age;
      setText(head!, `${t('player.rsHead', { name: rs.name, rev: rs.revision ?? '-', images: list(rs.images).join(', ') })}${deleting(rs)}${badge ? ` · ${badge}` : ''}`);
      setText(counts!, `${t('player.rsCounts', { desired: rs.desired, current: rs.current, ready: rs.ready, available: rs.available })}${rs.terminating ? t('player.rsTerminating', { n: rs.terminating }) : ''}`);
      counts!.dataset.desired = String(rs.desired);
      counts!.dataset.current = String(rs.current);
      setAttr(el, 'data-empty', rs.desired === 0 && rs.current === 0 && x.pods.length === 0 ? '' : null);
    } else {
      setText(head!, x.name);
      setText(counts!, t(x.pods.length === 1 ? 'player.podCountOne' : 'player.podCount', { count: x.pods.length }));
    }
    // Every pod listed: one square each. Otherwise (large runs list only the
    // first pods) the squares are drawn from the ReplicaSet's status counts,
    // on a canvas (squares.ts).
    const counted = this.truncated && rs !== null && x.pods.length < rs.current + (rs.terminating ?? 0);
    const total = counted ? countedTotal(rs) : x.pods.length;
    // Few pods are drawn large: the cluster view is the page's main picture.
    const drawnCount = Math.min(total, MAX_SQUARES);
    setAttr(squares!, 'data-size', drawnCount <= 30 ? 'l' : drawnCount <= 80 ? 'm' : null);
    const drawn = el as unknown as { squares: KeyedList<PodView, HTMLSpanElement>; canvas: SquareCanvas; countsDrawn?: string | undefined };
    if (counted) {
      // Squares drawn from counts stand for nothing but the counts: while
      // they are the same, so are the squares (most steps of a large run
      // change one ReplicaSet's counts, or none).
      const countsDrawn = `${rs.available}|${rs.ready}|${rs.current}|${rs.terminating ?? 0}`;
      if (!drawn.canvas.attached) {
        drawn.squares.set([]);
        drawn.canvas.attach();
        drawn.countsDrawn = undefined;
      }
      if (drawn.countsDrawn !== countsDrawn) {
        drawn.canvas.draw(countedRuns(rs, MAX_SQUARES));
        // The counts by state, as the canvas draws them (all of them, past the squares drawn).
        const all = Object.fromEntries(countedRuns(rs).map((r) => [r.state, r.n]));
        setAttr(squares!, 'title', t('player.countedTitle', { available: all.available ?? 0, ready: all.ready ?? 0, pending: all.pending ?? 0, terminating: all.terminating ?? 0 }));
      }
      drawn.countsDrawn = countsDrawn;
      setAttr(squares!, 'data-counted', '');
    } else {
      drawn.canvas.detach();
      drawn.countsDrawn = undefined;
      setAttr(squares!, 'data-counted', null);
      setAttr(squares!, 'title', null);
      // Only the squares drawn are built: a ReplicaSet of many pods costs MAX_SQUARES.
      drawn.squares.set(x.pods.slice(0, MAX_SQUARES));
    }
    setAttr(squares!, 'aria-label', counted ? t('player.podsCounted', { count: total }) : t(x.pods.length === 1 ? 'player.podCountOne' : 'player.podCount', { count: x.pods.length }));
    const hidden = total - drawnCount;
    setText(more!, `${hidden > 0 ? `${t('player.moreNotDrawn', { count: hidden })} ` : ''}${counted ? t('player.countedNote', { count: x.pods.length }) : ''}`);
    const unscheduled = x.pods.filter((p) => p.unschedulable);
    waiting!.hidden = unscheduled.length === 0;
    // (A large run lists only some pods: then no count.)
    const key = this.truncated ? 'player.unschedulableSome' : unscheduled.length === 1 ? 'player.unschedulableOne' : 'player.unschedulable';
    // The scheduler's reasons, without the preemption part that follows them (the title has it whole).
    const why = unscheduled[0]?.unschedulable ?? '';
    setText(waiting!, unscheduled.length ? t(key, { count: unscheduled.length, why: why.split(' preemption: ')[0]! }) : '');
    setAttr(waiting!, 'title', why || null);
    (details as unknown as { pods: PodView[] }).pods = x.pods;
    if ((details as HTMLDetailsElement).open) this.fillPodTable(details!.children[1] as HTMLElement, x.pods);
  }

  private updatePod(e: HTMLSpanElement, p: PodView): void {
    let cls = `pod ${podState(p)}`;
    if (this.claims.adopted.has(`${p.namespace}/${p.name}`)) cls += ' adopted';
    if (this.claims.released.has(`${p.namespace}/${p.name}`)) cls += ' released';
    setClass(e, cls);
    setAttr(e, 'title', `${p.name}: ${p.status}${p.ready ? t('player.tipReady') : ''}${p.available ? t('player.tipAvailable') : ''}${p.node ? t('player.tipNode', { node: p.node }) : ''}${p.unschedulable ? t('player.tipUnschedulable', { why: p.unschedulable }) : ''}${p.restarts ? t('player.tipRestarts', { n: p.restarts }) : ''}`);
  }

  private fillPodTable(body: HTMLElement, pods: PodView[]): void {
    const rows = pods.map((p) =>
      h('tr', {}, h('td', { text: p.name }), h('td', { text: p.status }), h('td', { text: p.ready ? t('player.yes') : t('player.no') }), h('td', { text: p.node ?? (p.unschedulable ? t('player.notScheduled') : '') }), h('td', { text: String(p.restarts) })),
    );
    body.replaceChildren(h('table', {}, h('thead', {}, h('tr', {}, ...t('player.podsHead').split('|').map((c) => h('th', { text: c })))), h('tbody', {}, ...rows)));
  }
}

/**
 * The rolling update's bounds beside what its ReplicaSets add up to now:
 * the replicas they want together against replicas + maxSurge, and those
 * available against replicas − maxUnavailable (the numbers the Deployment
 * controller compares; the math panel shows each decision's). Empty for a
 * Deployment without a budget (Recreate) or without one.
 */
export function renderBudget(el: HTMLElement, d: DeploymentView | null, groups: readonly { rs: ReplicaSetView | null }[]): void {
  const b = d?.budget;
  if (!d || !b) {
    setText(el, '');
    el.hidden = true;
    return;
  }
  let desired = 0;
  let available = 0;
  for (const g of groups) {
    desired += g.rs?.desired ?? 0;
    available += g.rs?.available ?? 0;
  }
  const max = d.replicas + b.maxSurge;
  const min = d.replicas - b.maxUnavailable;
  el.hidden = false;
  setText(el, t('player.budget', { replicas: d.replicas, surge: b.maxSurge, max, desired, unavail: b.maxUnavailable, min, available }));
  setAttr(el, 'title', t('player.budgetTitle'));
  setAttr(el, 'data-over', desired > max ? '' : null);
  setAttr(el, 'data-under', available < min ? '' : null);
}

// ---------------------------------------------------------------- queues

/** The workqueues: queue order, dirty/processing, waiting items, requeues, and the sync of this step. */
export function renderQueues(root: HTMLElement, v: View): void {
  const records = list(v.records);
  const started = records.filter((r) => r.type === 'SyncStarted');
  const ops = records.filter((r) => r.type === 'QueueOp');
  const out: Node[] = [];
  for (const q of list(v.queues)) {
    const s = q.state;
    const sec = h('div', { class: 'queue', 'data-controller': q.controller }, h('h3', { text: q.controller }));
    const queue = list(s.queue);
    sec.append(
      h('p', { class: 'q-line q-queue' }, h('strong', { text: t('player.queueLine', { count: queue.length }) }), queue.length ? queue.map((i) => `${i.key} [${list(i.reasons).join('; ')}]`).join(' → ') : t('player.empty')),
      h('p', { class: 'q-line q-dirty' }, h('strong', { text: t('player.dirty') }), list(s.dirty).join(', ') || '—'),
      h('p', { class: 'q-line q-processing' }, h('strong', { text: t('player.processing') }), list(s.processing).join(', ') || '—'),
    );
    const waiting = list(s.waiting);
    if (waiting.length) sec.append(h('p', { class: 'q-line q-waiting' }, h('strong', { text: t('player.waiting') }), waiting.map((w) => `${w.key} until ${w.readyAt.replace(/^.*T/, '')} (${w.reason})`).join('; ')));
    const requeues = list(s.requeues);
    if (requeues.length) sec.append(h('p', { class: 'q-line q-requeues' }, h('strong', { text: t('player.requeues') }), requeues.map((r) => `${r.key} ×${r.count}, last back-off ${r.lastBackoffNs / 1e6} ms`).join('; ')));
    const sync = started.find((r) => r.source === q.controller);
    if (sync) {
      const d = sync.data as { key?: string; reasons?: string[] };
      sec.append(h('p', { class: 'q-line q-sync' }, h('strong', { text: t('player.syncingNow') }), `${d.key ?? ''} because ${(d.reasons ?? []).join('; ')}`));
    }
    const myOps = ops.filter((r) => r.source === q.controller);
    if (myOps.length) sec.append(h('ul', { class: 'q-ops' }, ...myOps.slice(0, 12).map((r) => h('li', { text: r.text }))));
    out.push(sec);
  }
  // In place: most steps change a line or two of one queue.
  patchChildren(root, out);
}

/** Expectations per ReplicaSet, and this step's check when there was one. */
export function renderExpectations(root: HTMLElement, v: View): void {
  const rows = list(v.expectations).map((e) =>
    h(
      'tr',
      { 'data-key': e.key, class: e.satisfied ? 'ok' : 'wait' },
      h('td', { text: e.key }),
      h('td', { class: 'n-add', text: String(e.add) }),
      h('td', { class: 'n-del', text: String(e.del) }),
      h('td', { text: list(e.pendingDeleteKeys).join(', ') || '—' }),
      h('td', { class: 'satisfied', text: e.satisfied ? t('player.satisfied') : e.expired ? t('player.expired') : t('player.waitingState') }),
    ),
  );
  const out: Node[] = [];
  if (rows.length) {
    out.push(h('table', {}, h('thead', {}, h('tr', {}, ...t('player.expHead').split('|').map((c) => h('th', { scope: 'col', text: c })))), h('tbody', {}, ...rows)));
  } else out.push(h('p', { class: 'muted', text: t('player.noExpectations') }));
  for (const r of list(v.records)) {
    if (r.type !== 'ExpectationsCheck') continue;
    const d = r.data as { key: string; satisfied: boolean; reason: string; add: number; del: number };
    out.push(h('p', { class: `exp-check ${d.satisfied ? 'ok' : 'skip'}`, text: d.satisfied ? t('player.expRuns', { key: d.key, reason: d.reason }) : t('player.expSkip', { key: d.key, add: d.add, del: d.del }) }));
  }
  patchChildren(root, out);
}

// ---------------------------------------------------------------- math

/** The math blocks of the current step, or of the last step that had some. */
export function renderMath(root: HTMLElement, blocks: MathBlock[], fromStep: number, currentStep: number): void {
  if (blocks.length === 0) {
    mathShown.delete(root);
    root.replaceChildren(h('p', { class: 'muted', text: t('player.noControllerDecision') }));
    return;
  }
  // The same decision as the one on screen (the steps after it that decide
  // nothing show it too): only the "showing step N" line follows the step.
  // Rebuilding the blocks on every step made each frame lay out the whole
  // panel again (p95 of a step at 1,000 replicas: 37 ms with, 14 ms without).
  const shown = mathShown.get(root);
  if (shown && shown.blocks === blocks && shown.from === fromStep && shown.node.parentNode === root) {
    const line = root.querySelector(':scope > .math-from');
    if (fromStep === currentStep) line?.remove();
    else if (line) setText(line, mathFromText(currentStep, fromStep));
    else root.prepend(h('p', { class: 'muted math-from', text: mathFromText(currentStep, fromStep) }));
    return;
  }
  const out: Node[] = [];
  if (fromStep !== currentStep) out.push(h('p', { class: 'muted math-from', text: mathFromText(currentStep, fromStep) }));
  for (const b of blocks) {
    const el = h('div', { class: 'math-block', 'data-type': b.type, ...(b.context ? { 'data-context': '' } : {}) }, h('h3', {}, fnLink(b.title)));
    el.append(h('ul', { class: 'math-lines' }, ...b.lines.map((l) => h('li', { text: l }))));
    for (const tb of b.tables) {
      const table = h(
        'table',
        { class: 'math-table' },
        h('caption', { text: tb.caption }),
        h('thead', {}, h('tr', {}, ...tb.head.map((c) => h('th', { scope: 'col', text: c })))),
        h('tbody', {}, ...mathRows(tb)),
      );
      // A scroller the keyboard can reach (and name), as the kubectl output is.
      el.append(h('div', { class: 'math-table-scroll', tabindex: 0, role: 'region', 'aria-label': tb.caption }, table));
    }
    if (b.notes.length) el.append(h('ul', { class: 'math-notes' }, ...b.notes.map((n) => h('li', { text: n }))));
    out.push(el);
  }
  root.replaceChildren(...out);
  mathShown.set(root, { blocks, from: fromStep, node: out.at(-1)! });
}

/**
 * Rows of a math table drawn; the rest are counted (the trace panel has
 * them all). A safeguard for any table: when the deletion ranking drew a row
 * per victim, a scale-down of a 10,000-replica ReplicaSet (hundreds of them)
 * made main-thread tasks of 120 ms; it now leaves most out itself
 * (math.ts, RANKING_HEAD).
 */
export const MAX_MATH_ROWS = 40;

/** A math table's rows: at most MAX_MATH_ROWS, with a line for the rows its formatter left out (skip) and one for those past the cap. */
function mathRows(tb: MathTable): HTMLTableRowElement[] {
  const more = (text: string) => h('tr', { class: 'more-rows' }, h('td', { colspan: tb.head.length, text }));
  const out = tb.rows.slice(0, MAX_MATH_ROWS).map((r) => h('tr', {}, ...r.map((c, i) => h('td', tb.tokens || i === 0 ? { class: 'nowrap', text: c } : { text: c }))));
  if (tb.skip && tb.skip.at <= out.length) out.splice(tb.skip.at, 0, more(tb.skip.text));
  if (tb.rows.length > MAX_MATH_ROWS) out.push(more(t('player.moreRows', { n: tb.rows.length - MAX_MATH_ROWS })));
  return out;
}

/** What each math panel shows: the blocks, their step and a node of theirs (gone once something else replaced them). */
const mathShown = new WeakMap<HTMLElement, { blocks: MathBlock[]; from: number; node: Node }>();

const mathFromText = (current: number, from: number) => t('player.mathFrom', { current, from });

// ---------------------------------------------------------------- trace

/** Trace lines shown before "show all". */
const TRACE_LINES = 150;

/** The records a trace list shows (its view's records array) and the "show all" label they were drawn with. */
const traceShown = new WeakMap<HTMLElement, { records: unknown; more: string }>();
/** The record each trace entry (its details element) stands for; read when it opens. */
const recordOf = new WeakMap<Element, TraceRecord>();

/**
 * The records of the current step, colour-coded by kind, expandable to JSON.
 * The entries are reused from step to step (their text and colour change),
 * and a render of the same records changes nothing.
 */
export function renderTrace(root: HTMLElement, label: HTMLElement, v: View): void {
  const recs = list(v.records);
  setText(label, v.lastStep ? t('player.traceStep', { step: v.lastStep.step, what: `${v.lastStep.kind} ${v.lastStep.component}${v.lastStep.key ? ` ${v.lastStep.key}` : ''}`, at: formatOffset(v.lastStep.atNs), count: recs.length }) : t('player.traceSetup'));
  const more = t('player.showAll', { count: recs.length });
  const shown = traceShown.get(root);
  if (shown && shown.records === v.records && shown.more === more) return;
  traceShown.set(root, { records: v.records, more });
  fillTrace(root, recs, TRACE_LINES, more);
}

/** Shows the first `limit` records in root's entries (reused), then a "show all" button when there are more. */
function fillTrace(root: HTMLElement, recs: readonly TraceRecord[], limit: number, more: string): void {
  const n = Math.min(recs.length, limit);
  const items = root.children;
  for (let i = 0; i < n; i++) {
    let li = items[i];
    if (!li || li.classList.contains('trace-more')) {
      li = traceEntry();
      root.insertBefore(li, items[i] ?? null);
    }
    updateTraceEntry(li, recs[i]!);
  }
  while (items.length > n) root.lastElementChild!.remove();
  if (recs.length > n) {
    const btn = h('button', { type: 'button', text: more });
    btn.addEventListener('click', () => fillTrace(root, recs, Infinity, more));
    root.append(h('li', { class: 'trace-more' }, btn));
  }
}

function traceEntry(): HTMLLIElement {
  // One tab stop for the whole list: the list itself; arrows move between records (wireRoving).
  const d = h('details', {}, h('summary', { tabindex: -1 }));
  d.addEventListener('toggle', () => {
    if (!d.open) return;
    const json = JSON.stringify(recordOf.get(d)?.data, null, 2);
    const pre = d.children[1];
    if (pre) setText(pre, json);
    else d.append(h('pre', { text: json }));
  });
  return h('li', {}, d);
}

/** Points an entry at record r, closed (as every entry of a new step starts). */
function updateTraceEntry(li: Element, r: TraceRecord): void {
  const d = li.firstElementChild as HTMLDetailsElement;
  recordOf.set(d, r);
  setClass(d, `rec k-${r.kind}`);
  setText(d.firstElementChild!, `${r.source} ${r.kind}/${r.type}: ${r.text}`);
  if (d.open) d.open = false;
  d.children[1]?.remove();
}

// ---------------------------------------------------------------- steps

/** Rows of the step list drawn around the current step. */
const STEP_WINDOW = 80;

/** A step list's rows, kept between renders: a step or a step back updates a few rows instead of rebuilding all. */
interface StepRows {
  rows: KeyedList<StepInfo>;
  /** The step shown and the seek callback of the last render (the rows' click handlers read them). */
  current: number;
  seek: (n: number) => void;
}
const stepRows = new WeakMap<HTMLElement, StepRows>();

function stepRowsOf(root: HTMLElement): StepRows {
  let st = stepRows.get(root);
  if (st) return st;
  const state: StepRows = { rows: null as unknown as KeyedList<StepInfo>, current: 0, seek: () => {} };
  state.rows = new KeyedList<StepInfo>(
    root,
    (s) => String(s.step),
    (s) => {
      const b = h('button', { type: 'button', 'data-step': s.step });
      b.addEventListener('click', () => state.seek(Number(b.dataset.step)));
      return h('li', {}, b);
    },
    (li, s) => {
      const b = li.firstElementChild as HTMLButtonElement;
      const cur = s.step === state.current;
      setClass(b, `step-row k-${s.kind}${cur ? ' current' : ''}`);
      setAttr(b, 'tabindex', cur ? '0' : '-1');
      setAttr(b, 'aria-current', cur ? 'step' : null);
      // A step recomputed after an action may differ: its text is set every time (setText compares).
      setText(b, `${s.step} ${formatOffset(s.atNs)} ${s.kind} ${s.component}${s.key ? ` ${s.key}` : ''}`);
    },
  );
  st = state;
  stepRows.set(root, st);
  return st;
}

/**
 * The step list, filtered, windowed around the current step; click seeks.
 * history may have holes (steps not fetched yet): they are not drawn.
 */
export function renderSteps(root: HTMLElement, history: readonly (StepInfo | undefined)[], current: number, component: string, kind: string, seek: (n: number) => void): void {
  const filtered = component || kind ? history.filter((s) => s !== undefined && (!component || s.component === component) && (!kind || s.kind === kind)) : history;
  const shown = windowAround(filtered, firstAtOrAfter(filtered, current), STEP_WINDOW / 2, STEP_WINDOW);
  // Nothing to do when the same rows would be drawn with the same current step.
  const sig = `${component}|${kind}|${current}|${shown.length}|${shown[0]?.step ?? 0}|${shown.at(-1)?.step ?? 0}|${history.length}`;
  if (root.dataset.sig === sig) return;
  root.dataset.sig = sig;
  const st = stepRowsOf(root);
  st.current = current;
  st.seek = seek;
  root.querySelector(':scope > li.muted')?.remove();
  st.rows.set(shown);
  if (shown.length === 0) root.append(h('li', { class: 'muted', text: history.length ? t('player.noStepMatch') : t('player.noSteps') }));
  // One tab stop for the list (roving tabindex): the current row, or the first.
  if (!root.querySelector('[tabindex="0"]')) root.querySelector('button')?.setAttribute('tabindex', '0');
  // Scroll the list itself (never the page) so the current step is visible.
  const cur = root.querySelector('.current');
  if (cur) showWhenLaidOut(root, cur);
}

/**
 * Per step list: an IntersectionObserver with the list as its root, and the
 * row it last asked about. Asking it (not reading offsetTop in the render or
 * the next animation frame) keeps every render from forcing a layout: it
 * answers after the frame's own layout, and the list is laid out again only
 * when it scrolls.
 */
const rowWatch = new WeakMap<HTMLElement, { io: IntersectionObserver; row: Element | null }>();

/** Once the frame is laid out: when row is not wholly inside the list, scrolls the list to centre it. */
function showWhenLaidOut(root: HTMLElement, row: Element): void {
  let w = rowWatch.get(root);
  if (!w) {
    const watch: { io: IntersectionObserver; row: Element | null } = {
      row: null,
      io: new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            // Only the first answer after asking: later ones come from the user scrolling.
            if (e.target !== watch.row) continue;
            watch.io.unobserve(e.target);
            watch.row = null;
            const box = e.rootBounds;
            if (!box || box.height === 0 || e.intersectionRatio >= 1) continue;
            const top = e.boundingClientRect.top - box.top;
            root.scrollBy({ top: top - box.height / 2 });
          }
        },
        { root, threshold: 1 },
      ),
    };
    rowWatch.set(root, watch);
    w = watch;
  }
  if (w.row) w.io.unobserve(w.row);
  w.row = row;
  w.io.observe(row);
}

/**
 * Arrow keys move the focus between the focusable rows of a list (steps:
 * buttons, trace: record summaries) so the list is a single tab stop.
 */
export function wireRoving(list: HTMLElement, selector: string): void {
  list.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const rows = Array.from(list.querySelectorAll<HTMLElement>(selector));
    if (rows.length === 0) return;
    const at = rows.indexOf(document.activeElement as HTMLElement);
    let next = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : at + (e.key === 'ArrowDown' ? 1 : -1);
    if (at < 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) next = 0;
    next = Math.max(0, Math.min(rows.length - 1, next));
    e.preventDefault();
    e.stopPropagation();
    for (const r of rows) r.tabIndex = -1;
    rows[next]!.tabIndex = 0;
    rows[next]!.focus();
  });
}

/** The pod-state legend of the cluster view. */
export function renderPodLegend(root: HTMLElement): void {
  const states = ['pending', 'running', 'ready', 'available', 'failed', 'terminating', 'adopted', 'released'];
  root.replaceChildren(...states.map((s) => h('li', {}, h('span', { class: `pod ${s === 'adopted' || s === 'released' ? `available ${s}` : s}`, 'aria-hidden': 'true' }), ` ${t(`player.state.${s}`)}`)));
}

/**
 * Folds the pod-colour legend while the window is short (its summary only
 * shows there, see style.css) and opens it again when the window grows,
 * until the reader opens or closes it themselves.
 */
export function foldLegendInShortWindows(fold: HTMLDetailsElement, short: MediaQueryList = matchMedia('(max-height: 600px)')): void {
  let chosen = false;
  fold.querySelector('summary')?.addEventListener('click', () => (chosen = true));
  const follow = () => {
    if (!chosen) fold.open = !short.matches;
  };
  short.addEventListener('change', follow);
  follow();
}

/** Fills every panel's "what am I looking at" box (data-explain="cluster" → player.explain.cluster). */
export function renderExplanations(root: ParentNode = document): void {
  for (const d of root.querySelectorAll<HTMLElement>('.explain[data-explain]')) {
    d.querySelector('.explain-body')?.replaceChildren(h('p', {}, ...withLinks(t(`player.explain.${d.dataset.explain}`))));
  }
}

/** The nodes line: each node with its pod count, the ones in trouble (NotReady, not responding) first, the others in their order. */
export function nodesText(nodes: readonly NodeView[]): string {
  const troubled = (n: NodeView) => !n.ready || n.down === true;
  const text = [...nodes.filter(troubled), ...nodes.filter((n) => !troubled(n))]
    .map((n) => t(n.pods === 1 ? 'player.nodePodsOne' : 'player.nodePods', { name: `${n.name}${nodeState(n)}`, count: n.pods }))
    .join(' · ');
  return text ? t('player.nodes', { list: text }) : '';
}

/** What the nodes line says after a node's name: NotReady as the API has it, or that a node still Ready there has stopped responding. */
export function nodeState(n: NodeView): string {
  if (!n.ready) return ` ${t('player.notReady')}`;
  return n.down ? ` ${t('player.nodeSilent')}` : '';
}

/** " (deleting)" after an object's name while it is deleted, naming the finalizers it waits on. */
export function deleting(o: { deleting?: boolean; finalizers?: string[] }): string {
  if (!o.deleting) return '';
  return o.finalizers?.length ? ` ${t('player.deletingWith', { finalizers: o.finalizers.join(', ') })}` : ` ${t('player.deleting')}`;
}
