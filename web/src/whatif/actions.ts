// The what-if room's action forms as data: which fields each form has and
// how their values become a bridge Action (docs/bridge-api.md "Actions").
// Pure: the DOM lives in forms.ts, and tests build actions from plain values.

/** A Deployment the forms can act on (the bridge's `targets`). */
export interface Target {
  namespace: string;
  name: string;
  target: string;
  replicas: number;
  paused: boolean;
  strategy: string;
  maxSurge?: number | string;
  maxUnavailable?: number | string;
  minReadySeconds: number;
  progressDeadlineSeconds: number;
  containers: TargetContainer[] | null;
}

export interface TargetContainer {
  name: string;
  image: string;
  init?: boolean;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  env?: { name: string; value: string }[];
}

/** A bridge action: a JSON object with a type. */
export type Action = { type: string } & Record<string, unknown>;

/** What a field holds; the DOM picks the control from it. */
export type FieldKind = 'container' | 'pod' | 'node' | 'text' | 'int' | 'select' | 'textarea';

export interface Field {
  name: string;
  kind: FieldKind;
  /** i18n key of the label. */
  label: string;
  options?: readonly string[];
  /** i18n key of a placeholder. */
  placeholder?: string;
}

/** One form: its fields, its buttons' action types and how to build. */
export interface FormSpec {
  id: string;
  /** i18n key of the title. */
  title: string;
  /** Whether the form acts on a Deployment (shows the Deployment picker). */
  needsTarget: boolean;
  fields: readonly Field[];
  /** The buttons: one per variant (pause/resume/restart share a form); i18n keys. */
  variants?: readonly { id: string; label: string }[];
  build(v: Values, t: Target | undefined, variant: string): Built;
}

export type Values = Record<string, string>;

/** A built action, or the i18n key (and params) of why not. */
export type Built = { action: Action } | { error: string; params?: Record<string, string | number> };

/** Reads "3" as 3 and "25%" as "25%"; anything else is passed on as typed for the API server to judge. */
export function intOrPercent(s: string): number | string {
  return /^\d+$/.test(s) ? Number(s) : s;
}

function targetOf(t: Target | undefined): Record<string, unknown> {
  if (!t) return {};
  return t.namespace && t.namespace !== 'default' ? { target: t.target, namespace: t.namespace } : { target: t.target };
}

function wholeNumber(s: string): number | null {
  return /^-?\d+$/.test(s.trim()) ? Number(s.trim()) : null;
}

/** Parses env lines "NAME=value" (set) and "NAME-" (remove), as `kubectl set env` takes them. */
export function parseEnv(text: string): { env: Record<string, string | null> } | { error: string; params: Record<string, string | number> } {
  const env: Record<string, string | null> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (!l) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_.-]*)(?:=(.*)|(-))$/.exec(l);
    if (!m) return { error: 'whatif.err.envLine', params: { line: i + 1 } };
    env[m[1]!] = m[3] ? null : (m[2] ?? '');
  }
  if (Object.keys(env).length === 0) return { error: 'whatif.err.envEmpty', params: {} };
  return { env };
}

const containerOf = (v: Values): Record<string, unknown> => (v.container ? { container: v.container } : {});

/** The forms, in the order the room shows them. */
export const FORMS: readonly FormSpec[] = [
  {
    id: 'setImage',
    title: 'whatif.form.setImage',
    needsTarget: true,
    fields: [
      { name: 'container', kind: 'container', label: 'whatif.field.container' },
      { name: 'image', kind: 'text', label: 'whatif.field.image', placeholder: 'whatif.ph.image' },
    ],
    build(v, t) {
      if (!v.image?.trim()) return { error: 'whatif.err.imageRequired' };
      return { action: { type: 'setImage', ...targetOf(t), ...containerOf(v), image: v.image.trim() } };
    },
  },
  {
    id: 'setRollingUpdate',
    title: 'whatif.form.rollingUpdate',
    needsTarget: true,
    fields: [
      { name: 'maxSurge', kind: 'text', label: 'whatif.field.maxSurge', placeholder: 'whatif.ph.intOrPercent' },
      { name: 'maxUnavailable', kind: 'text', label: 'whatif.field.maxUnavailable', placeholder: 'whatif.ph.intOrPercent' },
    ],
    build(v, t) {
      const surge = v.maxSurge?.trim() ?? '';
      const unavail = v.maxUnavailable?.trim() ?? '';
      if (!surge && !unavail) return { error: 'whatif.err.surgeOrUnavailable' };
      return {
        action: {
          type: 'setRollingUpdate',
          ...targetOf(t),
          ...(surge ? { maxSurge: intOrPercent(surge) } : {}),
          ...(unavail ? { maxUnavailable: intOrPercent(unavail) } : {}),
        },
      };
    },
  },
  {
    id: 'setStrategy',
    title: 'whatif.form.strategy',
    needsTarget: true,
    fields: [{ name: 'strategy', kind: 'select', label: 'whatif.field.strategy', options: ['RollingUpdate', 'Recreate'] }],
    build(v, t) {
      return { action: { type: 'setStrategy', ...targetOf(t), strategy: v.strategy || 'RollingUpdate' } };
    },
  },
  {
    id: 'scale',
    title: 'whatif.form.scale',
    needsTarget: true,
    fields: [{ name: 'replicas', kind: 'int', label: 'whatif.field.replicas' }],
    build(v, t) {
      const n = wholeNumber(v.replicas ?? '');
      if (n === null || n < 0) return { error: 'whatif.err.replicas' };
      return { action: { type: 'scale', ...targetOf(t), replicas: n } };
    },
  },
  {
    id: 'rollout',
    title: 'whatif.form.rollout',
    needsTarget: true,
    fields: [],
    variants: [
      { id: 'pause', label: 'whatif.btn.pause' },
      { id: 'resume', label: 'whatif.btn.resume' },
      { id: 'restart', label: 'whatif.btn.restart' },
      { id: 'undo', label: 'whatif.btn.undo' },
    ],
    build(_v, t, variant) {
      return { action: { type: variant, ...targetOf(t) } };
    },
  },
  {
    id: 'timing',
    title: 'whatif.form.timing',
    needsTarget: true,
    fields: [
      { name: 'minReadySeconds', kind: 'int', label: 'whatif.field.minReadySeconds' },
      { name: 'progressDeadlineSeconds', kind: 'int', label: 'whatif.field.progressDeadlineSeconds' },
    ],
    variants: [
      { id: 'setMinReadySeconds', label: 'whatif.btn.setMinReady' },
      { id: 'setProgressDeadline', label: 'whatif.btn.setDeadline' },
    ],
    build(v, t, variant) {
      const field = variant === 'setMinReadySeconds' ? 'minReadySeconds' : 'progressDeadlineSeconds';
      const n = wholeNumber(v[field] ?? '');
      if (n === null) return { error: 'whatif.err.seconds', params: { field } };
      return { action: { type: variant, ...targetOf(t), [field]: n } };
    },
  },
  {
    id: 'setResources',
    title: 'whatif.form.resources',
    needsTarget: true,
    fields: [
      { name: 'container', kind: 'container', label: 'whatif.field.container' },
      { name: 'requests.cpu', kind: 'text', label: 'whatif.field.requestsCpu', placeholder: 'whatif.ph.cpu' },
      { name: 'requests.memory', kind: 'text', label: 'whatif.field.requestsMemory', placeholder: 'whatif.ph.memory' },
      { name: 'limits.cpu', kind: 'text', label: 'whatif.field.limitsCpu', placeholder: 'whatif.ph.cpu' },
      { name: 'limits.memory', kind: 'text', label: 'whatif.field.limitsMemory', placeholder: 'whatif.ph.memory' },
    ],
    build(v, t) {
      const resources: Record<string, Record<string, string>> = {};
      for (const k of ['requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']) {
        const val = v[k]?.trim();
        if (!val) continue;
        const [group, name] = k.split('.') as [string, string];
        (resources[group] ??= {})[name] = val;
      }
      if (Object.keys(resources).length === 0) return { error: 'whatif.err.resourcesEmpty' };
      return { action: { type: 'setResources', ...targetOf(t), ...containerOf(v), resources } };
    },
  },
  {
    id: 'setEnv',
    title: 'whatif.form.env',
    needsTarget: true,
    fields: [
      { name: 'container', kind: 'container', label: 'whatif.field.container' },
      { name: 'env', kind: 'textarea', label: 'whatif.field.env', placeholder: 'whatif.ph.env' },
    ],
    build(v, t) {
      const r = parseEnv(v.env ?? '');
      if ('error' in r) return r;
      return { action: { type: 'setEnv', ...targetOf(t), ...containerOf(v), env: r.env } };
    },
  },
  {
    id: 'cluster',
    title: 'whatif.form.cluster',
    needsTarget: false,
    fields: [
      { name: 'pod', kind: 'pod', label: 'whatif.field.pod' },
      { name: 'node', kind: 'node', label: 'whatif.field.node' },
    ],
    variants: [
      { id: 'deletePod', label: 'whatif.btn.deletePod' },
      { id: 'failNode', label: 'whatif.btn.failNode' },
      { id: 'recoverNode', label: 'whatif.btn.recoverNode' },
    ],
    build(v, _t, variant) {
      if (variant === 'deletePod') return v.pod ? { action: { type: 'deletePod', name: v.pod } } : { error: 'whatif.err.noPod' };
      return v.node ? { action: { type: variant, node: v.node } } : { error: 'whatif.err.noNode' };
    },
  },
  {
    id: 'apply',
    title: 'whatif.form.apply',
    needsTarget: false,
    fields: [{ name: 'manifest', kind: 'textarea', label: 'whatif.field.manifest', placeholder: 'whatif.ph.manifest' }],
    build(v) {
      if (!v.manifest?.trim()) return { error: 'whatif.err.manifestEmpty' };
      return { action: { type: 'apply', manifest: v.manifest } };
    },
  },
];

/** The Kubernetes documents of a scenario file (the Scenario document dropped), to start "apply edited YAML" from. */
export function manifestOf(source: string): string {
  const docs = source.split(/^---[^\n]*$/m).map((d) => d.replace(/^\n+/, ''));
  return docs
    .filter((d) => d.trim() && !/^kind:\s*Scenario\s*$/m.test(d))
    .join('---\n')
    .trimEnd()
    .concat('\n');
}

/**
 * A run's name in the comparison's legends: the values the action sets
 * first, then the action and its target, since a chart legend cuts a long
 * name (with the values last, "B: setRollingUpdate payments/deplo…"
 * never showed them).
 *
 *   runLabel({ type: 'setRollingUpdate', target: 'deployment/web', maxSurge: '100%' })
 *     → 'maxSurge=100% · setRollingUpdate deployment/web'
 */
export function runLabel(a: Action): string {
  const values: string[] = [];
  for (const [k, val] of Object.entries(a)) {
    if (k === 'type' || k === 'target' || k === 'namespace') continue;
    values.push(k === 'manifest' ? '(YAML)' : `${k}=${typeof val === 'object' ? JSON.stringify(val) : String(val)}`);
  }
  const what = typeof a.target === 'string' ? `${a.type} ${a.namespace ? `${a.namespace}/${a.target}` : a.target}` : a.type;
  return values.length ? `${values.join(' ')} · ${what}` : what;
}
