// The what-if room: action forms (each with its own error line), "what if
// at this step I had done X instead?" forks shown side by side, and export.
// app.ts mounts it with mountWhatIf and calls update() after each render;
// everything else goes through the host (the engine and the app's state).

import { h, setAttr, setText } from '../dom';
import { whenIdle } from '../idle';
import type { EngineError, Result } from '../result';
import '../i18n/all';
import '../i18n/whatif';
import { onLocaleChange, t } from '../i18n';
import { list, type Sample, type Snapshot, type StepInfo, type View } from '../types';
import { type Action, type Built, FORMS, type FormSpec, manifestOf, runLabel, type Target, type Values } from './actions';
import { comparisonSVG, DASHES, HEIGHT, seriesColors, WIDTH } from './chart';
import { chartEnd, type Comparison, RUN_NAMES, sameEnd, seconds, summaryRows, type Summary } from './comparison';
import { baseName, download, svgToPNG, timelineText } from './export';
import { type ForkPlan, type ForkRun, MAX_FORK_RUNS } from '../share/codec';
import './whatif.css';

/** What the room needs from the app. */
export interface WhatIfHost {
  call<T>(method: string, args?: unknown): Promise<Result<T>>;
  /** The scenario text loaded now. */
  source(): string;
  /** Applies an act snapshot to the player (view, chart, panels). */
  applySnapshot(s: Snapshot): void;
  /** Pods listed per view, as the app asks for. */
  maxPods: number;
  /** Draws a fork's run dotted over the player's replica chart, named in its legend by label ("B: image=…"); null removes it. */
  overlay(samples: readonly Sample[] | null, label?: string): void;
}

/** One run of the compare view. */
interface Run {
  name: string;
  label: string;
  summary: Summary;
  samples: Sample[];
  /** How an alternative was forked (absent for A): what a share link carries to fork it again. */
  fork?: ForkRun;
}

/** The fork/compare view's state: A and one or more alternatives. */
interface Forks {
  atStep: number;
  runs: Run[];
  /** Per alternative (B, C, ...): its comparison with A. */
  pairs: Comparison[];
}

/** What the room's buttons do with a built action. */
type Mode = 'apply' | 'fork';

export class WhatIfRoom {
  private view: View | null = null;
  private targets: Target[] = [];
  /** What the targets were last asked for at: the Deployments' identities and
   * generations (targets read only their specs, and a spec change bumps the
   * generation), so stepping, which leaves specs alone, asks the engine nothing. */
  private targetsKey = '';
  private forks: Forks | null = null;
  private readonly targetPick = h('select', { class: 'whatif-target', 'aria-label': t('whatif.deployment') });
  private readonly formPick = h('select', { class: 'whatif-form-pick', 'aria-label': t('whatif.change') });
  private readonly forms = new Map<string, { el: HTMLFormElement; error: HTMLElement; message: HTMLElement; containers: HTMLSelectElement[] }>();
  private readonly compareEl = h('div', { class: 'whatif-compare', hidden: true, 'aria-live': 'polite' });
  private readonly exportStatus = h('span', { class: 'whatif-export-status', role: 'status' });
  /** Whether a fork keeps the actions the user made after its step (checked: it changes one thing, the rest as recorded). */
  private readonly keepLater = h('input', { type: 'checkbox', class: 'whatif-keep-later', checked: true });
  /**
   * Whether a fork first does the actions the user made at its step (an image
   * set with "Apply now" just before asking "what if maxSurge were 100%?"):
   * unchecked, the fork's change replaces them, as "instead" says. Shown only
   * at a step with such actions, naming them.
   */
  private readonly keepAt = h('input', { type: 'checkbox', class: 'whatif-keep-at' });
  private readonly keepAtText = h('span', { class: 'whatif-keep-at-text' });
  private readonly keepAtLabel = h('label', { class: 'whatif-keep whatif-keep-at-label', hidden: true }, this.keepAt, ' ', this.keepAtText);
  /** The scenario, step and actions the keepAt option names now ("" when hidden). */
  private keepAtFor = '';
  /** A fill of the pod and node pickers waits for the page to be idle (fillObjectsWhenIdle). */
  private fillPending = false;
  /** Whether any of the room is on screen (its pickers then follow every step, as read). */
  private onScreen = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly host: WhatIfHost,
  ) {
    this.build();
    // The pickers are filled before anyone can read them: at every step
    // while the room is on screen, and before it is used.
    new IntersectionObserver((entries) => {
      for (const e of entries) this.onScreen = e.isIntersecting;
      if (this.onScreen) this.fillObjectsNow();
    }).observe(this.root);
    for (const type of ['pointerdown', 'focusin', 'keydown']) this.root.addEventListener(type, () => this.fillObjectsNow(), { capture: true });
    // A language switch rebuilds the forms and the comparison in the new language.
    onLocaleChange(() => {
      const shown = this.formPick.value;
      this.forms.clear();
      this.formPick.replaceChildren();
      this.build();
      if (shown) this.showForm(shown);
      this.targetPick.setAttribute('aria-label', t('whatif.deployment'));
      this.formPick.setAttribute('aria-label', t('whatif.change'));
      this.fillContainers();
      if (this.view) {
        this.fillObjects(this.view);
        this.showActionsHere(this.view);
      }
      this.renderCompare();
    });
  }

  // ---------------------------------------------------------------- layout

  private build(): void {
    for (const f of FORMS) this.formPick.append(h('option', { value: f.id, text: t(f.title) }));
    this.formPick.addEventListener('change', () => this.showForm(this.formPick.value));
    this.targetPick.addEventListener('change', () => this.fillContainers());
    const formsEl = h('div', { class: 'whatif-forms' });
    for (const f of FORMS) formsEl.append(this.buildForm(f));
    this.root.replaceChildren(
      h('h3', { id: 'whatif-heading', text: t('whatif.title') }),
      h('p', { class: 'muted whatif-intro', text: t('whatif.intro') }),
      h('div', { class: 'whatif-pickers' }, h('label', {}, t('whatif.deployment'), ' ', this.targetPick), h('label', {}, t('whatif.change'), ' ', this.formPick), h('label', { class: 'whatif-keep' }, this.keepLater, ' ', t('whatif.keepLater'))),
      this.keepAtLabel,
      formsEl,
      this.compareEl,
      this.buildExport(),
    );
    this.root.setAttribute('aria-labelledby', 'whatif-heading');
    this.showForm(FORMS[0]!.id);
  }

  private buildForm(spec: FormSpec): HTMLFormElement {
    const error = h('p', { class: 'form-error', role: 'alert', 'data-form-error': spec.id });
    const message = h('p', { class: 'form-message', role: 'status' });
    const containers: HTMLSelectElement[] = [];
    const fields = spec.fields.map((f) => {
      let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
      switch (f.kind) {
        case 'container': {
          const sel = h('select', { name: f.name });
          containers.push(sel);
          control = sel;
          break;
        }
        case 'pod':
        case 'node': {
          const sel = h('select', { name: f.name, 'data-fill': f.kind });
          control = sel;
          break;
        }
        case 'select':
          control = h('select', { name: f.name }, ...(f.options ?? []).map((o) => h('option', { value: o, text: o })));
          break;
        case 'textarea':
          control = h('textarea', { name: f.name, rows: 4, spellcheck: 'false', placeholder: f.placeholder ? t(f.placeholder) : undefined });
          break;
        default:
          control = h('input', { name: f.name, autocomplete: 'off', inputmode: f.kind === 'int' ? 'numeric' : undefined, placeholder: f.placeholder ? t(f.placeholder) : undefined });
      }
      return h('label', { class: `field field-${f.kind}` }, h('span', { text: t(f.label) }), control);
    });
    const buttons = h('div', { class: 'whatif-buttons' });
    const variants = spec.variants ?? [{ id: spec.id, label: '' }];
    for (const v of variants) {
      const suffix = v.label ? `${t(v.label)}: ` : '';
      buttons.append(
        h('button', { type: 'button', 'data-mode': 'apply', 'data-variant': v.id, text: `${suffix}${t('whatif.btn.apply')}`, onclick: () => void this.submit(spec, v.id, 'apply') }),
        h('button', { type: 'button', class: 'fork-btn', 'data-mode': 'fork', 'data-variant': v.id, text: `${suffix}${t('whatif.btn.fork')}`, onclick: () => void this.submit(spec, v.id, 'fork'), onpointerenter: (e) => this.titleFork(e), onfocus: (e) => this.titleFork(e) }),
      );
    }
    const extra: HTMLElement[] = [];
    if (spec.id === 'apply') {
      extra.push(
        h('button', {
          type: 'button',
          class: 'link',
          text: t('whatif.btn.fillManifest'),
          onclick: () => {
            const ta = el.querySelector<HTMLTextAreaElement>('textarea[name=manifest]');
            if (ta) ta.value = manifestOf(this.host.source());
            this.clearFeedback(spec.id);
          },
        }),
      );
    }
    const el = h('form', { class: 'whatif-form', 'data-form': spec.id, hidden: true }, ...fields, ...extra, buttons, error, message);
    el.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.submit(spec, variants[0]!.id, 'apply');
    });
    // A stale message goes as soon as the form changes.
    el.addEventListener('input', () => this.clearFeedback(spec.id));
    el.addEventListener('change', () => this.clearFeedback(spec.id));
    this.forms.set(spec.id, { el, error, message, containers });
    return el;
  }

  private buildExport(): HTMLElement {
    const b = (key: string, fn: () => Promise<void>) =>
      h('button', {
        type: 'button',
        text: t(key),
        onclick: () => {
          setText(this.exportStatus, '');
          fn().catch((e: unknown) => setText(this.exportStatus, t('whatif.export.failed', { reason: e instanceof Error ? e.message : String(e) })));
        },
      });
    return h(
      'div',
      { class: 'whatif-export', role: 'group', 'aria-label': t('whatif.export.title') },
      h('span', { class: 'muted', text: t('whatif.export.title') }),
      b('whatif.export.scenario', () => this.exportScenario()),
      b('whatif.export.trace', () => this.exportTrace()),
      b('whatif.export.timeline', () => this.exportTimeline()),
      b('whatif.export.svg', () => this.exportChart('svg')),
      b('whatif.export.png', () => this.exportChart('png')),
      this.exportStatus,
    );
  }

  private showForm(id: string): void {
    this.formPick.value = id;
    for (const [fid, f] of this.forms) f.el.hidden = fid !== id;
    const spec = FORMS.find((f) => f.id === id);
    this.targetPick.disabled = !spec?.needsTarget;
  }

  // ---------------------------------------------------------------- state

  /** Called by the app after every render; refreshes the pickers when the step changed. */
  update(v: View): void {
    const stepChanged = !this.view || this.view.step !== v.step || this.view.maxStep !== v.maxStep || this.view.scenario !== v.scenario;
    this.view = v;
    // "Apply now" leaves the step as it was and adds an action made here.
    this.showActionsHere(v);
    if (!stepChanged) return;
    const key = targetsKeyOf(v);
    if (this.targetsKey !== key) void this.refreshTargets(key);
    if (this.onScreen) {
      this.fillPending = true;
      this.fillObjectsNow();
    } else this.fillObjectsWhenIdle();
  }

  /**
   * Fills the pod and node pickers once the page is idle, from the view
   * shown then, while the room is off screen: a step that changes the pods
   * listed (most steps of a large run, every seek far away) would otherwise
   * rebuild 150 options in the frame that shows it (2 ms at 10,000
   * replicas, for a form no one sees). On screen, they follow every step
   * (update), so that the pod a form names is the one shown; the room
   * coming on screen, a pointer or the focus coming to it, or a form sent
   * fill them first (fillObjectsNow).
   */
  private fillObjectsWhenIdle(): void {
    if (this.fillPending) return;
    this.fillPending = true;
    whenIdle(() => this.fillObjectsNow(), 500);
  }

  /** Fills the pickers now if a fill is pending. */
  private fillObjectsNow(): void {
    if (!this.fillPending) return;
    this.fillPending = false;
    if (this.view) this.fillObjects(this.view);
  }

  /** Offers keeping the user's actions at this step in a fork, naming them; hidden at a step without any. A tick is for the actions it named: it is cleared when they change. */
  private showActionsHere(v: View): void {
    const here = v.actionsHere ?? [];
    const key = here.length ? `${v.scenario}\n${v.step}\n${here.join('\n')}` : '';
    if (key !== this.keepAtFor) {
      this.keepAtFor = key;
      this.keepAt.checked = false;
    }
    if (this.keepAtLabel.hidden !== (here.length === 0)) this.keepAtLabel.hidden = here.length === 0;
    setText(this.keepAtText, here.length ? t('whatif.keepAt', { actions: here.join('; ') }) : '');
  }

  /**
   * A fork button's title names the step shown: written when the pointer or
   * the focus comes to it, not at every step (a write per button per step
   * restyled them all).
   */
  private titleFork(e: Event): void {
    setAttr(e.currentTarget as Element, 'title', t('whatif.forkTitle', { step: this.view?.step ?? 0 }));
  }

  /** Forgets forks and messages (a new scenario was loaded). */
  reset(): void {
    this.resets++;
    if (this.forks) this.host.overlay(null);
    this.forks = null;
    this.compareEl.hidden = true;
    this.compareEl.replaceChildren();
    for (const id of this.forms.keys()) this.clearFeedback(id);
    this.targetsKey = ''; // the new scenario's Deployments, even if they look the same
    this.keepAtFor = '';
    this.keepAt.checked = false;
  }

  private async refreshTargets(key: string): Promise<void> {
    this.targetsKey = key;
    const r = await this.host.call<{ deployments: Target[] | null }>('targets');
    if (!r.ok) return;
    this.targets = r.value.deployments ?? [];
    const cur = this.targetPick.value;
    const keys = this.targets.map((d) => `${d.namespace}/${d.name}`);
    if ([...this.targetPick.options].map((o) => o.value).join() !== keys.join()) {
      this.targetPick.replaceChildren(...this.targets.map((d, i) => h('option', { value: keys[i], text: d.namespace === 'default' ? d.name : `${d.namespace}/${d.name}` })));
      this.targetPick.value = keys.includes(cur) ? cur : (keys[0] ?? '');
    }
    this.fillContainers();
  }

  /** Fills the pod and node pickers from the view (the pods it lists). */
  private fillObjects(v: View): void {
    const names = { pod: (v.pods ?? []).map((p) => p.name), node: (v.nodes ?? []).map((n) => n.name) };
    for (const sel of this.root.querySelectorAll<HTMLSelectElement>('select[data-fill]')) {
      const want = names[sel.dataset.fill as 'pod' | 'node'] ?? [];
      if ([...sel.options].map((o) => o.value).join() === want.join()) continue;
      const cur = sel.value;
      sel.replaceChildren(...want.map((n) => h('option', { value: n, text: n })));
      sel.value = want.includes(cur) ? cur : (want[0] ?? '');
    }
  }

  private target(): Target | undefined {
    return this.targets.find((d) => `${d.namespace}/${d.name}` === this.targetPick.value);
  }

  private fillContainers(): void {
    const tg = this.target();
    const cs = tg?.containers ?? [];
    for (const f of this.forms.values()) {
      for (const sel of f.containers) {
        const cur = sel.value;
        const names = cs.map((c) => c.name);
        // Labels carry the current image: refill when an image changed too.
        const labels = cs.map((c) => `${c.name}${c.init ? ` (${t('whatif.init')})` : ''} · ${c.image}`);
        if ([...sel.options].map((o) => o.text).join('\n') === labels.join('\n')) continue;
        sel.replaceChildren(...cs.map((c, i) => h('option', { value: c.name, text: labels[i] })));
        sel.value = names.includes(cur) ? cur : (cs.find((c) => !c.init)?.name ?? names[0] ?? '');
      }
    }
  }

  private values(id: string): Values {
    const out: Values = {};
    const f = this.forms.get(id);
    if (!f) return out;
    for (const c of f.el.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('[name]')) out[c.name] = c.value;
    return out;
  }

  private clearFeedback(id: string): void {
    const f = this.forms.get(id);
    if (!f) return;
    setText(f.error, '');
    setText(f.message, '');
    f.el.removeAttribute('data-state');
  }

  private fail(id: string, text: string): void {
    const f = this.forms.get(id);
    if (!f) return;
    setText(f.message, '');
    setText(f.error, text);
    f.el.dataset.state = 'error';
    f.error.scrollIntoView?.({ block: 'nearest' });
    // Again once the frame's renders have laid out: panels above the room
    // that grow in the meantime (steps still arriving) would push it away.
    requestAnimationFrame(() => {
      if (f.el.dataset.state === 'error') f.error.scrollIntoView?.({ block: 'nearest' });
    });
  }

  private ok(id: string, text: string): void {
    const f = this.forms.get(id);
    if (!f) return;
    setText(f.error, '');
    setText(f.message, text);
    f.el.dataset.state = 'ok';
  }

  // ---------------------------------------------------------------- actions

  /** Builds the form's action and applies it now, or forks with it. */
  async submit(spec: FormSpec, variant: string, mode: Mode): Promise<void> {
    this.fillObjectsNow();
    const built: Built = spec.build(this.values(spec.id), spec.needsTarget ? this.target() : undefined, variant);
    if ('error' in built) {
      this.fail(spec.id, t(built.error, built.params));
      return;
    }
    if (spec.needsTarget && !this.target()) {
      this.fail(spec.id, t('whatif.err.noDeployment'));
      return;
    }
    if (mode === 'apply') await this.applyNow(spec.id, built.action);
    else await this.fork(spec.id, built.action);
  }

  private errorText(e: EngineError): string {
    return e.panic ? t('whatif.err.panic', { message: e.message }) : e.message;
  }

  private async applyNow(formId: string, action: Action): Promise<void> {
    const r = await this.host.call<Snapshot>('act', { action, maxPods: this.host.maxPods });
    if (!r.ok) return this.fail(formId, this.errorText(r.error));
    this.ok(formId, r.value.message ?? t('whatif.done'));
    this.host.applySnapshot(r.value);
  }

  /** Forks at the current step with action instead; after "add another", the alternatives shown so far stay. */
  private async fork(formId: string, action: Action): Promise<boolean> {
    const step = this.view?.step ?? 0;
    const keep = { keepAt: !this.keepAtLabel.hidden && this.keepAt.checked, keepLater: this.keepLater.checked };
    return this.forkNow(formId, action, step, keep, this.addNext);
  }

  /** The comparison on screen, as a share link carries it (ShareRecorder adds how many actions preceded each run); null when none is shown. */
  plan(): ForkPlan<ForkRun> | null {
    const f = this.forks;
    if (!f) return null;
    const runs = f.runs.flatMap((r) => (r.fork ? [r.fork] : []));
    return runs.length ? { atStep: f.atStep, runs } : null;
  }

  /**
   * Forks one run of a shared comparison again (web/src/share/restore.ts):
   * the first replaces what is shown, the others (add) join it. Resolves to
   * whether the run was made.
   */
  async restoreRun(atStep: number, run: ForkRun, add: boolean): Promise<boolean> {
    const formId = FORMS.find((f) => f.id === run.action.type || f.variants?.some((v) => v.id === run.action.type))?.id ?? '';
    return this.forkNow(formId, run.action, atStep, { keepAt: run.keepAt === true, keepLater: run.keepLater === true }, add);
  }

  private forking = false;
  /** Counts resets (a new scenario): a fork that a reset overtook is dropped. */
  private resets = 0;

  /**
   * Forks at step with action (keeping the user's own actions at and after
   * it as keep says) and shows the comparison; add keeps the alternatives
   * shown so far at that step. Resolves to whether the fork was made.
   */
  private async forkNow(formId: string, action: Action, step: number, keep: { keepAt: boolean; keepLater: boolean }, add: boolean): Promise<boolean> {
    // One fork at a time (a double click would name two runs C).
    if (this.forking) return false;
    this.forking = true;
    try {
      return await this.forkOnce(formId, action, step, keep, add);
    } finally {
      this.forking = false;
    }
  }

  /** forkNow's work, one fork at a time. */
  private async forkOnce(formId: string, action: Action, step: number, keep: { keepAt: boolean; keepLater: boolean }, add: boolean): Promise<boolean> {
    const resets = this.resets;
    this.ok(formId, t('whatif.forking', { step }));
    // Let "playing both futures" paint before the engine is busy (a hidden
    // tab paints nothing, and runs no animation frame: a restore there
    // would wait until the tab is shown).
    if (!document.hidden) await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    // An alternative joins the runs shown when they were forked at this step and there is room for it.
    add = add && this.forks !== null && this.forks.atStep === step && this.forks.runs.length - 1 < MAX_FORK_RUNS;
    // The name the new run gets (B, or C, D... when added): the engine's
    // sentences use it too.
    const name = RUN_NAMES[add && this.forks ? this.forks.runs.length : 1] ?? '?';
    const r = await this.host.call<Comparison>('fork', { atStep: step, action, label: name, ...keep });
    if (resets !== this.resets) return false;
    if (!r.ok) {
      this.fail(formId, this.errorText(r.error));
      return false;
    }
    const c = r.value;
    this.addNext = false;
    if (!add || !this.forks) {
      this.forks = { atStep: step, runs: [{ name: 'A', label: t('whatif.run.recorded'), summary: c.a, samples: c.samplesA }], pairs: [] };
    }
    // A run that kept the actions made at the fork step is named by its
    // change first (the chart cuts long names), then by them.
    const label = c.keptAt && c.actionsAt?.length ? `${runLabel(action)} (+ ${c.actionsAt.join('; ')})` : runLabel(action);
    const fork: ForkRun = { action };
    if (keep.keepAt) fork.keepAt = true;
    if (keep.keepLater) fork.keepLater = true;
    this.forks.runs.push({ name, label, summary: c.b, samples: c.samplesB, fork });
    this.forks.pairs.push(c);
    // Say what the new run does with the user's own actions: an SRE who set
    // an image at step 13 and forked at step 13 or at step 0 must know
    // whether B has it.
    const at = c.actionsAt?.length ? ` ${t(c.keptAt ? 'whatif.keptAt' : 'whatif.replacedAt', { name, step, actions: c.actionsAt.join('; ') })}` : '';
    const later = c.laterActions ? ` ${t(c.keptLater ? 'whatif.keptLater' : 'whatif.droppedLater', { name, n: c.laterActions, step })}` : '';
    this.ok(formId, `${t('whatif.forked', { name, step })}${at}${later}`);
    this.host.overlay(c.samplesB, `${name}: ${label}`);
    this.renderCompare();
    return true;
  }

  /** Set by the "add another" button: the next fork adds a run instead of replacing B. */
  private addNext = false;

  // ---------------------------------------------------------------- compare view

  private renderCompare(): void {
    const f = this.forks;
    if (!f) return;
    const el = this.compareEl;
    el.hidden = false;
    const runs = f.runs;
    const svg = this.chartSVG();
    const chart = h('div', { class: 'whatif-chart' });
    chart.innerHTML = svg; // built by comparisonSVG, every text escaped
    const colors = seriesColors(runs.map((r) => r.samples));
    const legend = h(
      'div',
      { class: 'whatif-legend' },
      ...runs.map((r, i) => h('span', { class: 'run-key', 'data-dash': DASHES[i] ?? '' }, h('b', { text: r.name }), ` ${r.label}`)),
      ...[...colors.values()].map((c) => h('span', { class: 'series-key', style: `--c:${c.color}`, text: c.label })),
    );
    const rows = summaryRows(runs.map((r) => r.summary));
    const table = h(
      'table',
      { class: 'whatif-summary' },
      h('thead', {}, h('tr', {}, h('th', { text: '' }), ...runs.map((r) => h('th', { scope: 'col', title: r.label }, `${r.name}`)))),
      h(
        'tbody',
        {},
        ...rows.map((row) => h('tr', {}, h('th', { scope: 'row', text: row.label }), ...row.cells.map((c, i) => h('td', { class: row.best === i ? 'best' : '', text: c })))),
      ),
    );
    const pairs = f.pairs.map((c, i) => {
      const name = runs[i + 1]!.name;
      const d = c.divergence;
      const onlyA = c.events.onlyA ?? [];
      const onlyB = c.events.onlyB ?? [];
      const evList = (lines: typeof onlyA) => h('ol', { class: 'event-lines' }, ...lines.slice(0, 200).map((l) => h('li', {}, h('span', { class: 'muted', text: `+${seconds(l.atNs)} ` }), l.line)));
      return h(
        'section',
        { class: 'whatif-pair' },
        h('h4', { text: t('whatif.pair', { b: name }) }),
        h('p', { class: 'divergence', text: d ? d.words : t('whatif.same') }),
        d && (d.recordA || d.recordB) ? h('pre', { class: 'divergence-records', text: `A: ${d.recordA || '—'}\n${name}: ${d.recordB || '—'}` }) : null,
        h(
          'div',
          { class: 'event-diff' },
          h('div', {}, h('h5', { text: t('whatif.onlyIn', { name: 'A', n: onlyA.length }) }), evList(onlyA)),
          h('div', {}, h('h5', { text: t('whatif.onlyIn', { name, n: onlyB.length }) }), evList(onlyB)),
        ),
        h('p', { class: 'muted', text: t('whatif.common', { n: c.events.common }) }),
      );
    });
    const addBtn = h('button', {
      type: 'button',
      text: t('whatif.btn.addAnother'),
      disabled: runs.length - 1 >= MAX_FORK_RUNS,
      onclick: () => {
        this.addNext = true;
        setText(addBtn, t('whatif.addHint'));
      },
    });
    el.replaceChildren(
      h(
        'div',
        { class: 'whatif-compare-head' },
        h('h3', { text: t('whatif.compareTitle', { step: f.atStep }) }),
        addBtn,
        h('button', { type: 'button', text: t('whatif.btn.close'), onclick: () => this.reset() }),
      ),
      chart,
      legend,
      table,
      ...(sameEnd(runs.map((r) => r.summary)) ? [] : [h('p', { class: 'muted whatif-unranked', text: t('whatif.sum.unranked') })]),
      ...pairs,
    );
  }

  private chartSVG(): string {
    const f = this.forks;
    if (!f) return '';
    const forkAt = f.runs[0]?.summary.forkAtNs ?? 0;
    return comparisonSVG(
      f.runs.map((r) => ({ label: `${r.name}: ${r.label.length > 32 ? `${r.label.slice(0, 31)}…` : r.label}`, samples: r.samples, settled: !r.summary.stopped })),
      t('whatif.chartTitle', { step: f.atStep }),
      t('whatif.axis'),
      forkAt,
      chartEnd(f.runs.map((r) => r.summary)),
    );
  }

  // ---------------------------------------------------------------- export

  private name(): string {
    return baseName(this.view?.scenario ?? 'scenario');
  }

  private async exportScenario(): Promise<void> {
    const r = await this.host.call<{ yaml: string }>('exportScenario');
    if (!r.ok) throw new Error(r.error.message);
    download(`${this.name()}.yaml`, new Blob([r.value.yaml], { type: 'application/yaml' }));
  }

  private async exportTrace(): Promise<void> {
    const records: unknown[] = [];
    for (let from = 1; ; ) {
      const r = await this.host.call<{ records: { seq: number }[]; total: number }>('records', { from, limit: 10000 });
      if (!r.ok) throw new Error(r.error.message);
      records.push(...r.value.records);
      const last = r.value.records.at(-1);
      if (!last || r.value.records.length >= r.value.total) break;
      from = last.seq + 1;
    }
    const body = JSON.stringify({ scenario: this.view?.scenario, seed: this.view?.seed, step: this.view?.step, records }, null, 1);
    download(`${this.name()}-trace.json`, new Blob([body], { type: 'application/json' }));
  }

  private async exportTimeline(): Promise<void> {
    const r = await this.host.call<StepInfo[]>('steps', {});
    if (!r.ok) throw new Error(r.error.message);
    download(`${this.name()}-timeline.txt`, new Blob([timelineText(r.value, this.view?.scenario ?? '')], { type: 'text/plain' }));
  }

  private async exportChart(kind: 'svg' | 'png'): Promise<void> {
    let svg = this.chartSVG();
    if (!svg) {
      // No fork yet: the run as it stands.
      const r = await this.host.call<Sample[]>('samples');
      if (!r.ok) throw new Error(r.error.message);
      svg = comparisonSVG([{ label: this.view?.scenario ?? '', samples: r.value, settled: this.view?.idle ?? false }], t('whatif.chartTitleRun'), t('whatif.axis'), 0);
    }
    if (kind === 'svg') download(`${this.name()}-chart.svg`, new Blob([svg], { type: 'image/svg+xml' }));
    else download(`${this.name()}-chart.png`, await svgToPNG(svg, WIDTH, HEIGHT));
  }
}

/** Mounts the room into root (an empty section of the page). */
export function mountWhatIf(root: HTMLElement, host: WhatIfHost): WhatIfRoom {
  return new WhatIfRoom(root, host);
}

/** The Deployments a view holds, by identity and spec generation (WhatIfRoom.targetsKey). */
function targetsKeyOf(v: View): string {
  return `${v.scenario}|${list(v.deployments)
    .map((d) => `${d.namespace}/${d.name}/${d.uid}/${d.generation}`)
    .join(',')}`;
}
