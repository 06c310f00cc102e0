// The panels: each takes the current view (and what it needs besides) and
// updates its part of the page. The cluster view is keyed so a step touches
// only what changed; the small panels are rebuilt from their few rows.

import { buildSeries, linear, nearestStep, niceMax, thin } from './chart';
import { type Claims, podsByOwner, podState } from './diff';
import { formatOffset, h, KeyedList, setAttr, setClass, setText } from './dom';
import type { MathBlock } from './math';
import type { DeploymentView, PodView, ReplicaSetView, Sample, StepInfo, TraceRecord, View } from './types';
import { list } from './types';

/** Pod squares drawn per ReplicaSet; the rest are counted. */
export const MAX_SQUARES = 240;

// ---------------------------------------------------------------- cluster

interface RSGroup {
  rs: ReplicaSetView | null;
  name: string;
  pods: PodView[];
}
interface DeployGroup {
  d: DeploymentView | null;
  name: string;
  groups: RSGroup[];
}

function revNum(rs: ReplicaSetView | null): number {
  return rs?.revision ? Number(rs.revision) : -1;
}

/** The cluster view: Deployments containing ReplicaSets containing pods. */
export class ClusterPanel {
  private readonly deploys: KeyedList<DeployGroup>;
  private claims: Claims = { adopted: new Set(), released: new Set() };
  private openPods = new Set<string>();
  /** True when the view listed only some pods (the engine's maxPods cap). */
  private truncated = false;

  constructor(private readonly root: HTMLElement, private readonly nodesEl: HTMLElement) {
    root.textContent = '';
    this.deploys = new KeyedList<DeployGroup>(
      root,
      (g) => g.name,
      (g) => this.createDeploy(g),
      (el, g) => this.updateDeploy(el, g),
    );
  }

  /** Renders the view; maxPods is the cap the view was requested with. */
  render(v: View, claims: Claims, maxPods: number): void {
    this.claims = claims;
    this.truncated = maxPods > 0 && list(v.pods).length >= maxPods;
    const byOwner = podsByOwner(list(v.pods));
    const deploys = new Map<string, DeployGroup>();
    for (const d of list(v.deployments)) deploys.set(d.name, { d, name: d.name, groups: [] });
    const orphans: DeployGroup = { d: null, name: '', groups: [] };
    for (const rs of list(v.replicaSets)) {
      const g: RSGroup = { rs, name: rs.name, pods: byOwner.get(rs.name) ?? [] };
      byOwner.delete(rs.name);
      const parent = rs.owner ? deploys.get(rs.owner) : undefined;
      (parent ?? orphans).groups.push(g);
    }
    for (const [owner, pods] of byOwner) orphans.groups.push({ rs: null, name: owner ? `${owner} (gone)` : '(no owner)', pods });
    for (const g of deploys.values()) g.groups.sort((a, b) => revNum(b.rs) - revNum(a.rs) || a.name.localeCompare(b.name));
    const all = [...deploys.values()];
    if (orphans.groups.length > 0) all.push(orphans);
    this.deploys.set(all);
    if (all.length === 0) this.root.dataset.empty = 'true';
    else delete this.root.dataset.empty;
    this.renderNodes(v);
  }

  private renderNodes(v: View): void {
    const text = list(v.nodes)
      .map((n) => `${n.name}${n.ready ? '' : ' (NotReady)'}: ${n.pods} pods`)
      .join(' · ');
    setText(this.nodesEl, text ? `Nodes — ${text}` : '');
  }

  private createDeploy(g: DeployGroup): HTMLElement {
    const title = h('h3', { class: 'deploy-title' });
    const meta = h('p', { class: 'deploy-meta' });
    const rsBox = h('div', { class: 'rs-list' });
    const el = h('article', { class: 'deploy', 'data-name': g.name, 'aria-label': g.d ? `Deployment ${g.name}` : 'Objects without a Deployment' }, title, meta, rsBox);
    const rsList = new KeyedList<RSGroup>(rsBox, (x) => x.name, (x) => this.createRS(x), (e, x) => this.updateRS(e, x));
    (el as unknown as { rsList: KeyedList<RSGroup> }).rsList = rsList;
    return el;
  }

  private updateDeploy(el: HTMLElement, g: DeployGroup): void {
    const [title, meta] = [el.children[0]!, el.children[1]!];
    const d = g.d;
    if (d) {
      setText(title, `Deployment ${d.name}${d.paused ? ' (paused)' : ''}${d.deleting ? ' (deleting)' : ''}`);
      const strat = d.strategy === 'RollingUpdate' ? `RollingUpdate maxSurge ${d.maxSurge ?? '?'} maxUnavailable ${d.maxUnavailable ?? '?'}` : d.strategy;
      const prog = list(d.conditions).find((c) => c.type === 'Progressing');
      setText(
        meta,
        `replicas ${d.replicas} · ${strat} · revision ${d.revision ?? '-'} · ${list(d.images).join(', ')} · status: total ${d.status.replicas}, updated ${d.status.updated}, ready ${d.status.ready}, available ${d.status.available}` +
          (prog ? ` · Progressing ${prog.status} ${prog.reason ?? ''}` : ''),
      );
    } else {
      setText(title, 'Without a Deployment');
      setText(meta, '');
    }
    (el as unknown as { rsList: KeyedList<RSGroup> }).rsList.set(g.groups);
  }

  private createRS(x: RSGroup): HTMLElement {
    const head = h('div', { class: 'rs-head' });
    const counts = h('div', { class: 'rs-counts' });
    const squares = h('div', { class: 'pods', role: 'img' });
    const more = h('span', { class: 'pods-more muted' });
    const details = h('details', { class: 'pod-details' }, h('summary', { text: 'pod details' }), h('div', { class: 'pod-table' }));
    details.addEventListener('toggle', () => {
      if (details.open) this.openPods.add(x.name);
      else this.openPods.delete(x.name);
      const body = details.children[1] as HTMLElement;
      if (details.open) this.fillPodTable(body, (details as unknown as { pods: PodView[] }).pods ?? []);
      else body.textContent = '';
    });
    const el = h('div', { class: 'rs', 'data-name': x.name }, head, counts, squares, more, details);
    const sq = new KeyedList<PodView, HTMLSpanElement>(
      squares,
      (p) => p.name,
      () => h('span', { class: 'pod' }),
      (e, p) => this.updatePod(e, p),
    );
    (el as unknown as { squares: KeyedList<PodView, HTMLSpanElement> }).squares = sq;
    return el;
  }

  private updateRS(el: HTMLElement, x: RSGroup): void {
    const [head, counts, squares, more, details] = Array.from(el.children) as HTMLElement[];
    const rs = x.rs;
    if (rs) {
      setText(head!, `ReplicaSet ${rs.name} · rev ${rs.revision ?? '-'} · hash ${rs.podTemplateHash ?? '-'} · ${list(rs.images).join(', ')}${rs.deleting ? ' · deleting' : ''}`);
      setText(counts!, `desired ${rs.desired} · current ${rs.current} · ready ${rs.ready} · available ${rs.available}${rs.terminating ? ` · terminating ${rs.terminating}` : ''}`);
      counts!.dataset.desired = String(rs.desired);
      counts!.dataset.current = String(rs.current);
    } else {
      setText(head!, x.name);
      setText(counts!, `${x.pods.length} pods`);
    }
    // Every pod listed: one square each. Otherwise (large runs list only the
    // first pods) the squares are drawn from the ReplicaSet's status counts.
    const counted = this.truncated && rs !== null && x.pods.length < rs.current + (rs.terminating ?? 0);
    const all = counted ? countedSquares(rs) : x.pods;
    const shown = all.slice(0, MAX_SQUARES);
    (el as unknown as { squares: KeyedList<PodView, HTMLSpanElement> }).squares.set(shown);
    setAttr(squares!, 'aria-label', counted ? `${all.length} pods, drawn from the ReplicaSet status` : `${x.pods.length} pods`);
    const hidden = all.length - shown.length;
    setText(more!, `${hidden > 0 ? `+${hidden} more not drawn. ` : ''}${counted ? `Squares from status counts; ${x.pods.length} pods listed.` : ''}`);
    (details as unknown as { pods: PodView[] }).pods = x.pods;
    if ((details as HTMLDetailsElement).open) this.fillPodTable(details!.children[1] as HTMLElement, x.pods);
  }

  private updatePod(e: HTMLSpanElement, p: PodView): void {
    let cls = `pod ${podState(p)}`;
    if (this.claims.adopted.has(p.name)) cls += ' adopted';
    if (this.claims.released.has(p.name)) cls += ' released';
    setClass(e, cls);
    if (p.name.includes('#')) {
      setAttr(e, 'title', `${p.status} (counted from the ReplicaSet status)`);
      return;
    }
    setAttr(e, 'title', `${p.name}: ${p.status}${p.ready ? ', ready' : ''}${p.available ? ', available' : ''}${p.node ? `, on ${p.node}` : ''}${p.restarts ? `, ${p.restarts} restarts` : ''}`);
  }

  private fillPodTable(body: HTMLElement, pods: PodView[]): void {
    const rows = pods.map((p) =>
      h('tr', {}, h('td', { text: p.name }), h('td', { text: p.status }), h('td', { text: p.ready ? 'yes' : 'no' }), h('td', { text: p.node ?? '' }), h('td', { text: String(p.restarts) })),
    );
    body.replaceChildren(h('table', {}, h('thead', {}, h('tr', {}, ...['name', 'status', 'ready', 'node', 'restarts'].map((t) => h('th', { text: t })))), h('tbody', {}, ...rows)));
  }
}

/**
 * Stand-in squares for a ReplicaSet whose pods are not all listed: available,
 * then ready, then not ready, then terminating, as its status counts them.
 */
export function countedSquares(rs: ReplicaSetView): PodView[] {
  const out: PodView[] = [];
  const add = (n: number, tag: string, over: Partial<PodView>) => {
    for (let i = 0; i < n; i++) {
      out.push({ namespace: rs.namespace, name: `${rs.name}#${tag}${i}`, phase: 'Running', status: tag, ready: false, available: false, terminating: false, restarts: 0, image: '', ...over });
    }
  };
  const terminating = rs.terminating ?? 0;
  add(rs.available, 'available', { ready: true, available: true });
  add(Math.max(0, rs.ready - rs.available), 'ready', { ready: true });
  add(Math.max(0, rs.current - rs.ready), 'not ready', { phase: 'Pending' });
  add(terminating, 'terminating', { terminating: true });
  return out;
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
      h('p', { class: 'q-line q-queue' }, h('strong', { text: `queue (${queue.length}): ` }), queue.length ? queue.map((i) => `${i.key} [${list(i.reasons).join('; ')}]`).join(' → ') : 'empty'),
      h('p', { class: 'q-line q-dirty' }, h('strong', { text: 'dirty: ' }), list(s.dirty).join(', ') || '—'),
      h('p', { class: 'q-line q-processing' }, h('strong', { text: 'processing: ' }), list(s.processing).join(', ') || '—'),
    );
    const waiting = list(s.waiting);
    if (waiting.length) sec.append(h('p', { class: 'q-line q-waiting' }, h('strong', { text: 'waiting: ' }), waiting.map((w) => `${w.key} until ${w.readyAt.replace(/^.*T/, '')} (${w.reason})`).join('; ')));
    const requeues = list(s.requeues);
    if (requeues.length) sec.append(h('p', { class: 'q-line q-requeues' }, h('strong', { text: 'requeues: ' }), requeues.map((r) => `${r.key} ×${r.count}, last back-off ${r.lastBackoffNs / 1e6} ms`).join('; ')));
    const sync = started.find((r) => r.source === q.controller);
    if (sync) {
      const d = sync.data as { key?: string; reasons?: string[] };
      sec.append(h('p', { class: 'q-line q-sync' }, h('strong', { text: 'syncing now: ' }), `${d.key ?? ''} because ${(d.reasons ?? []).join('; ')}`));
    }
    const myOps = ops.filter((r) => r.source === q.controller);
    if (myOps.length) sec.append(h('ul', { class: 'q-ops' }, ...myOps.slice(0, 12).map((r) => h('li', { text: r.text }))));
    out.push(sec);
  }
  root.replaceChildren(...out);
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
      h('td', { class: 'satisfied', text: e.satisfied ? 'satisfied' : e.expired ? 'expired' : 'waiting' }),
    ),
  );
  const out: Node[] = [];
  if (rows.length) {
    out.push(h('table', {}, h('thead', {}, h('tr', {}, ...['ReplicaSet', 'adds', 'deletes', 'pending delete keys', 'state'].map((t) => h('th', { scope: 'col', text: t })))), h('tbody', {}, ...rows)));
  } else out.push(h('p', { class: 'muted', text: 'No expectations recorded.' }));
  for (const r of list(v.records)) {
    if (r.type !== 'ExpectationsCheck') continue;
    const d = r.data as { key: string; satisfied: boolean; reason: string; add: number; del: number };
    out.push(h('p', { class: `exp-check ${d.satisfied ? 'ok' : 'skip'}`, text: d.satisfied ? `This sync: ${d.key} expectations ${d.reason} → manageReplicas runs.` : `This sync: ${d.key} still expects add ${d.add}, del ${d.del} → manageReplicas skipped.` }));
  }
  root.replaceChildren(...out);
}

// ---------------------------------------------------------------- math

/** The math blocks of the current step, or of the last step that had some. */
export function renderMath(root: HTMLElement, blocks: MathBlock[], fromStep: number, currentStep: number): void {
  if (blocks.length === 0) {
    root.replaceChildren(h('p', { class: 'muted', text: 'No controller decision yet.' }));
    return;
  }
  const out: Node[] = [];
  if (fromStep !== currentStep) out.push(h('p', { class: 'muted math-from', text: `No decision in step ${currentStep}; showing step ${fromStep}.` }));
  for (const b of blocks) {
    const el = h('div', { class: 'math-block', 'data-type': b.type }, h('h3', { text: b.title }));
    el.append(h('ul', { class: 'math-lines' }, ...b.lines.map((l) => h('li', { text: l }))));
    for (const t of b.tables) {
      el.append(
        h(
          'table',
          { class: 'math-table' },
          h('caption', { text: t.caption }),
          h('thead', {}, h('tr', {}, ...t.head.map((c) => h('th', { scope: 'col', text: c })))),
          h('tbody', {}, ...t.rows.map((r) => h('tr', {}, ...r.map((c) => h('td', { text: c }))))),
        ),
      );
    }
    if (b.notes.length) el.append(h('ul', { class: 'math-notes' }, ...b.notes.map((n) => h('li', { text: n }))));
    out.push(el);
  }
  root.replaceChildren(...out);
}

// ---------------------------------------------------------------- trace

/** Trace lines shown before "show all". */
const TRACE_LINES = 150;

/** The records of the current step, colour-coded by kind, expandable to JSON. */
export function renderTrace(root: HTMLElement, label: HTMLElement, v: View): void {
  const recs = list(v.records);
  setText(label, v.lastStep ? `step ${v.lastStep.step}: ${v.lastStep.kind} ${v.lastStep.component}${v.lastStep.key ? ` ${v.lastStep.key}` : ''} at ${formatOffset(v.lastStep.atNs)} — ${recs.length} records` : 'Set-up (step 0): no step taken yet.');
  const item = (r: TraceRecord) => {
    const d = h('details', { class: `rec k-${r.kind}` }, h('summary', { text: `${r.source} ${r.kind}/${r.type}: ${r.text}` }));
    d.addEventListener('toggle', () => {
      if (d.open && d.children.length === 1) d.append(h('pre', { text: JSON.stringify(r.data, null, 2) }));
    }, { once: false });
    return h('li', {}, d);
  };
  const shown = recs.slice(0, TRACE_LINES).map(item);
  if (recs.length > TRACE_LINES) {
    const btn = h('button', { type: 'button', text: `show all ${recs.length}` });
    btn.addEventListener('click', () => root.replaceChildren(...recs.map(item)));
    shown.push(h('li', {}, btn));
  }
  root.replaceChildren(...shown);
}

// ---------------------------------------------------------------- steps

/** Rows of the step list drawn around the current step. */
const STEP_WINDOW = 80;

/** The step list, filtered, windowed around the current step; click seeks. */
export function renderSteps(root: HTMLElement, history: readonly StepInfo[], current: number, component: string, kind: string, seek: (n: number) => void): void {
  const filtered = component || kind ? history.filter((s) => (!component || s.component === component) && (!kind || s.kind === kind)) : history;
  let at = filtered.findIndex((s) => s.step >= current);
  if (at < 0) at = filtered.length;
  const from = Math.max(0, at - STEP_WINDOW / 2);
  const shown = filtered.slice(from, from + STEP_WINDOW);
  // Nothing to do when the same rows would be drawn with the same current step.
  const sig = `${component}|${kind}|${current}|${shown.length}|${shown[0]?.step ?? 0}|${shown.at(-1)?.step ?? 0}|${history.length}`;
  if (root.dataset.sig === sig) return;
  root.dataset.sig = sig;
  const rows = shown.map((s) => {
    const b = h('button', { type: 'button', class: `step-row k-${s.kind}${s.step === current ? ' current' : ''}`, 'aria-current': s.step === current ? 'step' : null, text: `${s.step} ${formatOffset(s.atNs)} ${s.kind} ${s.component}${s.key ? ` ${s.key}` : ''}` });
    b.addEventListener('click', () => seek(s.step));
    return h('li', {}, b);
  });
  if (rows.length === 0) rows.push(h('li', { class: 'muted', text: history.length ? 'No step matches the filters.' : 'No steps yet: press Step.' }));
  root.replaceChildren(...rows);
  // Scroll the list itself (never the page) so the current step is visible;
  // in the next frame, so reading the layout does not force an extra one now.
  requestAnimationFrame(() => {
    const cur = root.querySelector<HTMLElement>('.current');
    if (!cur) return;
    const top = cur.offsetTop - root.offsetTop;
    if (top < root.scrollTop || top + cur.offsetHeight > root.scrollTop + root.clientHeight) root.scrollTop = Math.max(0, top - root.clientHeight / 2);
  });
}

// ---------------------------------------------------------------- chart

const SVG = 'http://www.w3.org/2000/svg';
const W = 600;
const HGT = 220;
const PAD = { l: 36, r: 10, t: 10, b: 24 };

/** The replicas chart; clicking seeks to the nearest sample. */
export class ChartPanel {
  private readonly svg: SVGSVGElement;
  private readonly paths = new Map<string, SVGPathElement>();
  private readonly cursor: SVGLineElement;
  private readonly yLabel: SVGTextElement;
  private readonly xLabel: SVGTextElement;
  private samples: readonly Sample[] = [];
  private x = linear(0, 1, PAD.l, W - PAD.r);
  /** What the x axis shows: the step index (default: every step gets room) or virtual time. */
  axis: 'step' | 'time' = 'step';
  /** A second run drawn dashed on the same axes (the what-if room's fork); null for none. */
  private overlay: readonly Sample[] | null = null;

  /** Draws another run's samples dashed over this one from the next render on; null removes it. */
  setOverlay(samples: readonly Sample[] | null): void {
    this.overlay = samples;
  }

  constructor(root: HTMLElement, private readonly legend: HTMLElement, seek: (n: number) => void) {
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.setAttribute('viewBox', `0 0 ${W} ${HGT}`);
    this.svg.setAttribute('role', 'img');
    this.svg.setAttribute('aria-label', 'Replicas per ReplicaSet and available pods over virtual time; click to go to that time');
    const axis = document.createElementNS(SVG, 'path');
    axis.setAttribute('d', `M${PAD.l},${PAD.t}V${HGT - PAD.b}H${W - PAD.r}`);
    axis.setAttribute('class', 'axis');
    this.cursor = document.createElementNS(SVG, 'line');
    this.cursor.setAttribute('class', 'cursor');
    this.yLabel = document.createElementNS(SVG, 'text');
    this.yLabel.setAttribute('x', '4');
    this.yLabel.setAttribute('y', String(PAD.t + 10));
    this.xLabel = document.createElementNS(SVG, 'text');
    this.xLabel.setAttribute('x', String(W - PAD.r));
    this.xLabel.setAttribute('y', String(HGT - 6));
    this.xLabel.setAttribute('text-anchor', 'end');
    this.svg.append(axis, this.cursor, this.yLabel, this.xLabel);
    root.append(this.svg);
    this.svg.addEventListener('click', (e) => {
      if (this.samples.length === 0) return;
      const box = this.svg.getBoundingClientRect();
      const px = ((e.clientX - box.left) / box.width) * W;
      const at = this.x.invert(px);
      if (this.axis === 'step') seek(Math.min(Math.max(0, Math.round(at)), this.samples.length - 1));
      else seek(nearestStep(this.samples, at));
    });
  }

  render(samples: readonly Sample[], currentStep: number): void {
    this.samples = samples;
    const own = buildSeries(samples);
    const over = this.overlay ? buildSeries(this.overlay).map((s) => ({ ...s, id: `overlay:${s.id}` })) : [];
    const series = [...own, ...over];
    const last = samples[samples.length - 1];
    const overLast = this.overlay?.[this.overlay.length - 1];
    const byStep = this.axis === 'step';
    const tMax = Math.max(last ? (byStep ? last.step : last.atNs) : 0, overLast ? (byStep ? overLast.step : overLast.atNs) : 0);
    let vMax = 1;
    for (const s of series) for (const p of s.points) vMax = Math.max(vMax, p[1]);
    const yMax = niceMax(vMax);
    this.x = linear(0, Math.max(tMax, 1), PAD.l, W - PAD.r);
    const y = linear(0, yMax, HGT - PAD.b, PAD.t);
    const seen = new Set<string>();
    series.forEach((s, i) => {
      seen.add(s.id);
      let path = this.paths.get(s.id);
      if (!path) {
        path = document.createElementNS(SVG, 'path');
        this.paths.set(s.id, path);
        this.svg.insertBefore(path, this.cursor);
      }
      const pts = thin(s.points, 800);
      let d = '';
      for (const [t, val, step] of pts) {
        const px = this.x(byStep ? step : t).toFixed(1);
        const py = y(val).toFixed(1);
        d += d ? `H${px}V${py}` : `M${px},${py}`;
      }
      path.setAttribute('d', d);
      const base = s.id.replace(/^overlay:/, '');
      const idx = own.findIndex((o) => o.id === base); // B's line takes A's colour
      const color = base.startsWith('available/') ? 'avail' : `c${(idx >= 0 ? idx : i) % 6}`;
      path.setAttribute('class', `line ${color}`);
      if (s.id.startsWith('overlay:')) path.setAttribute('stroke-dasharray', '6 4');
    });
    for (const [id, p] of this.paths) if (!seen.has(id)) (p.remove(), this.paths.delete(id));
    const cur = samples[Math.min(currentStep, samples.length - 1)];
    const cx = this.x(cur ? (byStep ? cur.step : cur.atNs) : 0).toFixed(1);
    this.cursor.setAttribute('x1', cx);
    this.cursor.setAttribute('x2', cx);
    this.cursor.setAttribute('y1', String(PAD.t));
    this.cursor.setAttribute('y2', String(HGT - PAD.b));
    this.yLabel.textContent = String(yMax);
    const end = overLast && (byStep ? overLast.step : overLast.atNs) > (last ? (byStep ? last.step : last.atNs) : 0) ? overLast : last;
    this.xLabel.textContent = byStep ? `step ${tMax} (${formatOffset(end?.atNs ?? 0)})` : formatOffset(tMax);
    this.legend.replaceChildren(...own.map((s, i) => h('span', { class: `key ${s.id.startsWith('available/') ? 'avail' : `c${i % 6}`}`, text: s.label })));
  }
}
