// Share links: the simulation's state in the URL fragment.
//
//   #v1.<base64url(deflate-raw(JSON))>
//
// JSON = { source?: scenario YAML, id?: shared-scenario id (short links carry
// the scenario in the Worker's store instead), name?, seed?, actions: [{step,
// action}], step, lang?, forks?: {atStep, runs: [{action, keepAt?,
// keepLater?, afterActions}]} }: forks is the What if? comparison on screen
// (runs B, C, D), each forked once the first afterActions actions were made. The version prefix lets a later format coexist: a
// link with a higher version is reported as "newer", anything unreadable as
// "corrupt"; decoding never throws.

import type { UserAction } from '../types';

/** The format this code writes (and the highest it reads). */
export const SHARE_VERSION = 1;

/** A user action and the step it was made at (replayed with seek + act). */
export interface RecordedAction {
  step: number;
  action: UserAction;
}

/** One alternative of a comparison: the fork's change and what else it kept (the engine's fork arguments). */
export interface ForkRun {
  /** An action as the What if? room builds it (any of the engine's action types). */
  action: { type: string } & Record<string, unknown>;
  keepAt?: boolean;
  keepLater?: boolean;
}

/** A comparison's alternative in a share link: forked once the first afterActions recorded actions were made. */
export interface SharedForkRun extends ForkRun {
  afterActions: number;
}

/** The What if? comparison on screen: runs B, C, D forked at atStep. */
export interface ForkPlan<R extends ForkRun = SharedForkRun> {
  atStep: number;
  runs: R[];
}

/** The most alternatives a comparison holds (B, C, D). */
export const MAX_FORK_RUNS = 3;

export interface ShareState {
  /** Scenario YAML; absent when `id` names a stored scenario. */
  source?: string;
  /** Id of a scenario stored by the share API (short links). */
  id?: string;
  /** File name the scenario was loaded as. */
  name?: string;
  seed?: number;
  actions: RecordedAction[];
  step: number;
  lang?: string;
  forks?: ForkPlan;
}

export type DecodeResult = { ok: true; state: ShareState } | { ok: false; kind: 'corrupt'; reason: string } | { ok: false; kind: 'newer'; version: number };

/** Whether a fragment looks like a share link at all (any version). */
export function isShareFragment(hash: string): boolean {
  return /^#?v\d+\./.test(hash);
}

export async function encodeShare(state: ShareState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const packed = await pipe(json, new CompressionStream('deflate-raw'));
  return `#v${SHARE_VERSION}.${toBase64URL(packed)}`;
}

export async function decodeShare(hash: string): Promise<DecodeResult> {
  const m = /^#?v(\d+)\.(.*)$/s.exec(hash);
  if (!m) return { ok: false, kind: 'corrupt', reason: 'no version prefix' };
  const version = Number(m[1]);
  if (version > SHARE_VERSION) return { ok: false, kind: 'newer', version };
  if (version < 1) return { ok: false, kind: 'corrupt', reason: `unknown version ${version}` };
  const bytes = fromBase64URL(m[2]!);
  if (!bytes) return { ok: false, kind: 'corrupt', reason: 'not base64url' };
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(await pipe(bytes, new DecompressionStream('deflate-raw')));
  } catch {
    return { ok: false, kind: 'corrupt', reason: 'cannot decompress' };
  }
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return { ok: false, kind: 'corrupt', reason: 'not JSON' };
  }
  const state = validate(data);
  return state ? { ok: true, state } : { ok: false, kind: 'corrupt', reason: 'unexpected contents' };
}

function validate(d: unknown): ShareState | null {
  if (typeof d !== 'object' || d === null) return null;
  const o = d as Record<string, unknown>;
  const isStep = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (typeof o.source !== 'string' && typeof o.id !== 'string') return null;
  if (o.id !== undefined && (typeof o.id !== 'string' || !/^[0-9a-f]{32}$/.test(o.id))) return null;
  if (!isStep(o.step) || !Array.isArray(o.actions)) return null;
  if (o.seed !== undefined && !isStep(o.seed)) return null;
  for (const k of ['name', 'lang'] as const) if (o[k] !== undefined && typeof o[k] !== 'string') return null;
  const actions: RecordedAction[] = [];
  for (const a of o.actions) {
    if (typeof a !== 'object' || a === null) return null;
    const r = a as Record<string, unknown>;
    if (!isStep(r.step) || typeof r.action !== 'object' || r.action === null || typeof (r.action as { type?: unknown }).type !== 'string') return null;
    actions.push({ step: r.step, action: r.action as UserAction });
  }
  const s: ShareState = { actions, step: o.step };
  if (o.forks !== undefined) {
    const forks = validForks(o.forks, actions.length);
    if (!forks) return null;
    s.forks = forks;
  }
  if (typeof o.source === 'string') s.source = o.source;
  if (typeof o.id === 'string') s.id = o.id;
  if (typeof o.name === 'string') s.name = o.name;
  if (typeof o.seed === 'number') s.seed = o.seed;
  if (typeof o.lang === 'string') s.lang = o.lang;
  return s;
}

/**
 * The comparison d describes, or null when it is malformed: 1 to
 * MAX_FORK_RUNS runs, each with an action, optional keep flags and the
 * number of the link's actions made before it (never fewer than the run
 * before it had, never more than the link has).
 */
export function validForks(d: unknown, actions: number): ForkPlan | null {
  if (typeof d !== 'object' || d === null) return null;
  const f = d as Record<string, unknown>;
  const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (!isCount(f.atStep)) return null;
  if (!Array.isArray(f.runs) || f.runs.length === 0 || f.runs.length > MAX_FORK_RUNS) return null;
  const runs: SharedForkRun[] = [];
  for (const x of f.runs) {
    if (typeof x !== 'object' || x === null) return null;
    const r = x as Record<string, unknown>;
    if (typeof r.action !== 'object' || r.action === null || typeof (r.action as { type?: unknown }).type !== 'string') return null;
    if ((r.keepAt !== undefined && typeof r.keepAt !== 'boolean') || (r.keepLater !== undefined && typeof r.keepLater !== 'boolean')) return null;
    if (!isCount(r.afterActions) || r.afterActions > actions || r.afterActions < (runs.at(-1)?.afterActions ?? 0)) return null;
    const run: SharedForkRun = { action: r.action as ForkRun['action'], afterActions: r.afterActions };
    if (r.keepAt) run.keepAt = true;
    if (r.keepLater) run.keepLater = true;
    runs.push(run);
  }
  return { atStep: f.atStep, runs };
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export function toBase64URL(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64URL(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  try {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}
