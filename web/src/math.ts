// Turns the structured data of the controllers' math records into formulas
// with their numbers, for the math panel. It reads `record.data` only, never
// `record.text`, and computes nothing the engine did not report: every number
// shown is a field of the payload (see engine/deployutil/*.go).

import { t } from './i18n';
import './i18n/math';
import type { TraceRecord } from './types';

import { MATH_TYPES } from './math-types';

/** A table under a formula, e.g. the proportional-scaling rows. */
export interface MathTable {
  caption: string;
  head: string[];
  rows: string[][];
  /**
   * Rows left out of a long table: a line saying so is drawn between
   * rows[skip.at - 1] and rows[skip.at] (0 <= at <= rows.length).
   */
  skip?: { at: number; text: string };
  /** Every cell is a token (a name, a word, a count), kept on one line; otherwise only the first column (a name) is. */
  tokens?: boolean;
}

/** One record rendered for people. */
export interface MathBlock {
  /** The payload type, e.g. "NewRSMath". */
  type: string;
  /** The function the decision belongs to, e.g. "NewRSNewReplicas". */
  title: string;
  /** Formulas, one per line: "maxTotalPods = replicas 10 + maxSurge 3 = 13". */
  lines: string[];
  tables: MathTable[];
  /** Rules that applied: rounding directions, the fencepost rule, why a step stopped. */
  notes: string[];
  /**
   * Context rather than a decision (the fenceposts, no scaling event,
   * expectations satisfied): presenter mode folds it to its result line so
   * the decision is in view.
   */
  context?: boolean;
  /** The claims a ClaimDecision block gathers (mathOf). */
  claims?: number;
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}
function num(o: Obj, k: string): number {
  const v = o[k];
  return typeof v === 'number' ? v : 0;
}
function str(o: Obj, k: string): string {
  const v = o[k];
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
function arr(o: Obj, k: string): Obj[] {
  const v = o[k];
  return Array.isArray(v) ? v.map(obj) : [];
}
/** A signed count: "+3", "-2", "0". */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * The NewRSNewReplicas formula.
 *
 *   newRSLines({strategy:'RollingUpdate', replicas:10, maxSurge:3, maxTotalPods:13, currentPods:10,
 *               newRSReplicas:0, atCapacity:false, scaleUpCount:3, result:3})
 *   → ['maxTotalPods = replicas 10 + maxSurge 3 = 13', 'Σ spec.replicas of all ReplicaSets 10',
 *      'scale up = min(13 − 10, 10 − 0) = 3', 'new RS = 0 + 3 = 3']
 */
export function newRSLines(d: Obj): string[] {
  if (str(d, 'error')) return [`error: ${str(d, 'error')}`];
  if (str(d, 'strategy') !== 'RollingUpdate') {
    return [t('math.strategyNewRS', { strategy: str(d, 'strategy'), replicas: num(d, 'replicas') })];
  }
  const lines = [
    `maxTotalPods = replicas ${num(d, 'replicas')} + maxSurge ${num(d, 'maxSurge')} = ${num(d, 'maxTotalPods')}`,
    t('math.currentPods', { n: num(d, 'currentPods') }),
  ];
  if (d.atCapacity === true) {
    lines.push(t('math.atCapacity', { current: num(d, 'currentPods'), max: num(d, 'maxTotalPods'), result: num(d, 'result') }));
    return lines;
  }
  lines.push(
    t('math.scaleUp', { max: num(d, 'maxTotalPods'), current: num(d, 'currentPods'), replicas: num(d, 'replicas'), rs: num(d, 'newRSReplicas'), n: num(d, 'scaleUpCount') }),
    t('math.newRS', { rs: num(d, 'newRSReplicas'), n: num(d, 'scaleUpCount'), result: num(d, 'result') }),
  );
  return lines;
}

/**
 * One side of the fenceposts, with its rounding direction.
 *
 *   fencepostSide('maxSurge', {input:'25%', isPercent:true, percent:25, raw:'2.5', rounding:'up', value:3}, 10)
 *   → 'maxSurge = 25% of 10 = 2.5, rounded up → 3'
 */
export function fencepostSide(name: string, v: Obj, replicas: number): string {
  if (v.isPercent === true) {
    return t(str(v, 'rounding') === 'up' ? 'math.percentUp' : 'math.percentDown', { name, input: str(v, 'input'), replicas, raw: str(v, 'raw'), value: num(v, 'value') });
  }
  if (str(v, 'input') === 'unset') return t('math.unset', { name });
  return t('math.absolute', { name, value: num(v, 'value') });
}

function fenceposts(d: Obj): MathBlock {
  const b = block('FencepostMath', 'ResolveFenceposts');
  const replicas = num(d, 'replicas');
  if (d.resolved !== true) {
    b.lines.push(t('math.noFenceposts', { strategy: str(d, 'strategy') }));
    if (str(d, 'error')) b.notes.push(`error: ${str(d, 'error')}`);
    return b;
  }
  b.lines.push(fencepostSide('maxSurge', obj(d.surge), replicas), fencepostSide('maxUnavailable', obj(d.unavailable), replicas));
  b.notes.push(t('math.rounding'));
  if (d.fencepostRule === true) {
    b.notes.push(t('math.fencepostRule', { n: num(d, 'resolvedUnavailable') }));
  }
  if (d.zeroReplicas === true) b.notes.push(t('math.zeroReplicas'));
  if (d.clampedToReplicas === true) b.notes.push(t('math.clamped', { replicas }));
  b.lines.push(`→ maxSurge ${num(d, 'maxSurge')}, maxUnavailable ${num(d, 'maxUnavailable')}`);
  b.context = true;
  return b;
}

function oldScaleDown(d: Obj): MathBlock {
  const b = block('OldScaleDownMath', 'reconcileOldReplicaSets');
  const stopped = str(d, 'stopped');
  if (stopped === 'no old pods') {
    b.lines.push(t('math.noOldPods'));
    return b;
  }
  const replicas = num(d, 'replicas');
  const minAvailable = num(d, 'minAvailable');
  b.lines.push(
    `minAvailable = replicas ${replicas} − maxUnavailable ${num(d, 'maxUnavailable')} = ${minAvailable}`,
    t('math.newUnavailable', { rs: num(d, 'newRSReplicas'), avail: num(d, 'newRSAvailable'), n: num(d, 'newRSUnavailable') }),
    t('math.maxScaledDown', { all: num(d, 'allPods'), min: minAvailable, un: num(d, 'newRSUnavailable'), n: num(d, 'maxScaledDown') }),
  );
  // Tables come after the lines, so the lines say the order upstream runs
  // them in: the unhealthy clean-up first, then the rolling scale-down.
  const cleaned = arr(d, 'cleanedUnhealthy');
  if (num(d, 'cleanupCount') > 0) b.lines.push(t('math.cleanupFirst', { n: num(d, 'cleanupCount') }));
  if (cleaned.length > 0) {
    b.tables.push({
      caption: t('math.cleanup', { n: num(d, 'cleanupCount') }),
      head: ['ReplicaSet', 'spec', 'available', 'removed', 'new size', 'note'],
      rows: cleaned.map((r) => [str(r, 'name'), String(num(r, 'spec')), String(num(r, 'available')), String(num(r, 'removed')), String(num(r, 'newSize')), str(r, 'skip')]),
    });
  }
  const scaled = arr(d, 'scaledDown');
  if (num(d, 'maxScaledDown') > 0 && !stopped) {
    b.lines.push(t(num(d, 'cleanupCount') > 0 ? 'math.scaleDownThen' : 'math.scaleDown', { avail: num(d, 'availablePods'), min: minAvailable, n: num(d, 'scaleDownTarget') }));
  }
  if (scaled.length > 0) {
    b.tables.push({
      caption: t('math.scaledDown'),
      head: ['ReplicaSet', 'spec', 'available', 'removed', 'new size'],
      rows: scaled.map((r) => [str(r, 'name'), String(num(r, 'spec')), String(num(r, 'available')), `−${num(r, 'removed')}`, String(num(r, 'newSize'))]),
    });
  }
  b.lines.push(t('math.totalScaledDown', { n: num(d, 'totalScaledDown') }));
  if (stopped) b.notes.push(t('math.stopped', { why: stopped }));
  return b;
}

/**
 * The proportional-scaling table: per ReplicaSet its spec, the size the
 * deployment had before (max-replicas annotation), the fraction, the capped
 * proportion and the new size.
 */
export function proportionalTable(p: Obj): MathTable {
  const adding = num(p, 'toAdd') >= 0;
  return {
    caption: `order: ${str(p, 'order')}`,
    head: ['ReplicaSet', 'spec', 'before', 'fraction', `proportion (${adding ? 'min' : 'max'} with allowed)`, 'new size'],
    rows: arr(p, 'rows').map((r) => {
      const src = str(r, 'maxSource');
      let fraction: string;
      if (src === '') fraction = '—';
      else if (src === 'scale-to-zero') fraction = `${signed(num(r, 'fraction'))} (scale to 0)`;
      else if (src === 'none') fraction = '0 (no base)';
      else fraction = `round(${num(r, 'spec')}×${num(r, 'newMax')}/${num(r, 'maxBefore')} = ${str(r, 'raw')}) − ${num(r, 'spec')} = ${signed(num(r, 'fraction'))}`;
      const proportion = src === '' ? '0' : `${adding ? 'min' : 'max'}(${signed(num(r, 'fraction'))}, ${signed(num(r, 'allowed'))}) = ${signed(num(r, 'proportion'))}`;
      return [str(r, 'name'), String(num(r, 'spec')), src === '' ? '—' : `${num(r, 'maxBefore')} (${src})`, fraction, proportion, String(num(r, 'newSize'))];
    }),
  };
}

function scale(d: Obj): MathBlock {
  const b = block('ScaleMath', 'scale');
  switch (str(d, 'path')) {
    case 'active-or-latest':
      b.lines.push(`single active or latest RS ${str(d, 'target')}: ${num(d, 'targetReplicas')} → ${num(d, 'replicas')}`);
      break;
    case 'saturated':
      b.lines.push(`new RS ${str(d, 'newRS')} saturated (spec = desired = available = ${num(d, 'replicas')}) → active old RSs to 0`);
      break;
    case 'proportional': {
      const p = obj(d.proportional);
      b.lines.push(
        num(p, 'replicas') === 0
          ? 'allowed = 0 (replicas 0)'
          : `allowed = replicas ${num(p, 'replicas')} + maxSurge ${num(p, 'maxSurge')} = ${num(p, 'allowedSize')}`,
        `current = Σ spec over active RSs = ${num(p, 'current')}`,
        `toAdd = ${num(p, 'allowedSize')} − ${num(p, 'current')} = ${signed(num(p, 'toAdd'))}`,
      );
      b.tables.push(proportionalTable(p));
      b.lines.push(`added ${signed(num(p, 'added'))}`);
      if (str(p, 'leftoverTo')) {
        b.lines.push(`leftover = ${signed(num(p, 'toAdd'))} − ${signed(num(p, 'added'))} = ${signed(num(p, 'leftover'))} → ${str(p, 'leftoverTo')}`);
        if (p.leftoverClamped === true) b.notes.push('leftover floored at 0');
      }
      b.notes.push(t('math.fractionNote'));
      break;
    }
    default:
      b.lines.push(t('math.nothingToScale'));
  }
  return b;
}

function reconcileNew(d: Obj): MathBlock {
  const b = block('ReconcileNewMath', 'reconcileNewReplicaSet');
  const rel = num(d, 'newRSReplicas') === num(d, 'replicas') ? '=' : num(d, 'newRSReplicas') < num(d, 'replicas') ? '<' : '>';
  b.lines.push(`new RS ${str(d, 'newRS')} ${num(d, 'newRSReplicas')} ${rel} replicas ${num(d, 'replicas')} (${str(d, 'case')})`);
  if (d.sizing !== undefined && d.sizing !== null) b.lines.push(...newRSLines(obj(d.sizing)));
  b.lines.push(`→ new RS target ${num(d, 'target')}`);
  return b;
}

function expectationsCheck(d: Obj): MathBlock {
  const b = block('ExpectationsCheck', 'SatisfiedExpectations');
  const pending = Array.isArray(d.pendingKeys) ? (d.pendingKeys as unknown[]).map(String) : [];
  b.lines.push(t('math.expLine', { key: str(d, 'key'), add: num(d, 'add'), del: num(d, 'del'), reason: str(d, 'reason') }));
  if (pending.length > 0) b.lines.push(t('math.pendingDeletes', { list: pending.join(', ') }));
  b.lines.push(d.satisfied === true ? t('math.expSatisfied') : t('math.expNotSatisfied'));
  b.context = d.satisfied === true;
  return b;
}

/**
 * One adoption or release by ClaimPods (ClaimReplicaSets for a
 * Deployment): the object, why, and how the patch went. mathOf gathers a
 * step's claims into one block.
 */
function claim(d: Obj): MathBlock {
  const rs = str(d, 'object').startsWith('ReplicaSet ');
  const b = block('ClaimDecision', rs ? 'ClaimReplicaSets' : 'ClaimPods');
  const word = (kind: string, v: string) => (CLAIM_WORDS.includes(v) ? t(`math.claim.${kind}.${v}`) : v);
  b.lines.push(`${word('action', str(d, 'action'))} ${str(d, 'object')}: ${str(d, 'why')} → ${word('outcome', str(d, 'outcome'))}`);
  b.notes.push(t(rs ? 'math.claimNoteRS' : 'math.claimNote', { owner: str(d, 'owner') }));
  return b;
}

/** Claim actions and outcomes with words of their own in each language (others show as the engine says them). */
const CLAIM_WORDS = ['adopt', 'release', 'done'];

/** Claims listed in one step's block; the rest are counted (the trace has them all). */
const MAX_CLAIM_LINES = 10;

function manage(d: Obj): MathBlock {
  const b = block('ManageDecision', 'manageReplicas');
  b.lines.push(t('math.diff', { active: num(d, 'active'), desired: num(d, 'desired'), diff: num(d, 'diff') }));
  const batches = Array.isArray(d.batches) ? (d.batches as unknown[]).map(String) : [];
  const action = str(d, 'action');
  const word = ['create', 'delete', 'nothing', 'skipped'].includes(action) ? t(`math.action.${action}`) : action;
  b.lines.push(`→ ${word}${num(d, 'count') ? ` ${num(d, 'count')}` : ''}${batches.length ? ` ${t('math.batches', { list: batches.join(' ') })}` : ''}`);
  return b;
}

/**
 * A ranking of many victims shows the first RANKING_HEAD, the last
 * RANKING_TAIL (the cut: the last victim's "decided by" names the rule that
 * put it ahead of the first survivor) and the survivors; the victims between
 * are counted. A scale-down of a 10,000-replica ReplicaSet deletes 500 pods
 * a sync: a table of the first 40 hid the cut and the survivors, and drawing
 * it cost a seek's frame 10-20 ms of style and layout.
 */
export const RANKING_HEAD = 5;
export const RANKING_TAIL = 2;

function deletionRanking(d: Obj): MathBlock {
  const b = block('DeletionRanking', 'getPodsToDelete');
  b.lines.push(`${str(d, 'owner')}: delete ${num(d, 'diff')} of ${num(d, 'candidates')}`);
  // "decided by" comes third: a table wider than its panel (a cloud's node
  // names, "ip-10-0-1-4.ec2.internal") scrolls, and the rule deciding stays
  // in view. Every cell is a token kept on one line (a pod's name broken at
  // its hyphens took three lines a row). Victims taken in input order (all
  // of them, unsorted) have no rule: no column.
  const sorted = d.sorted !== false;
  const row = (p: Obj) => [str(p, 'name'), p.victim === true ? 'yes' : '', ...(sorted ? [str(p, 'decidedBy')] : []), str(p, 'node'), str(p, 'phase'), p.ready === true ? 'yes' : 'no', String(num(p, 'restarts'))];
  const head = ['pod', 'victim', ...(sorted ? ['decided by'] : []), 'node', 'phase', 'ready', 'restarts'];
  const pods = arr(d, 'pods');
  // The payload lists the victims first, in deletion order, then the survivors.
  let victims = 0;
  while (victims < pods.length && pods[victims]!.victim === true) victims++;
  const table: MathTable = { caption: t('math.ranked'), head, rows: [], tokens: true };
  const left = victims - RANKING_HEAD - RANKING_TAIL;
  if (left > 1) {
    table.rows = [...pods.slice(0, RANKING_HEAD), ...pods.slice(victims - RANKING_TAIL)].map(row);
    table.skip = { at: RANKING_HEAD, text: t('math.moreVictims', { n: left }) };
  } else table.rows = pods.map(row);
  b.tables.push(table);
  return b;
}

function rolloutStatus(d: Obj): MathBlock {
  const b = block('RolloutStatusDecision', 'syncRolloutStatus');
  const o = obj(d.old);
  const n = obj(d.new);
  const fmt = (c: Obj) => `${num(c, 'replicas')}/${num(c, 'updated')}/${num(c, 'ready')}/${num(c, 'available')}`;
  b.lines.push(`total/updated/ready/available ${fmt(o)} → ${fmt(n)} (replicas ${num(d, 'replicas')})`);
  const prog = obj(d.progressing);
  b.lines.push(`case ${str(d, 'case')}; Progressing ${str(prog, 'status')} ${str(prog, 'reason')}`.trim());
  return b;
}

function block(type: string, title: string): MathBlock {
  return { type, title, lines: [], tables: [], notes: [] };
}

/** Renders one record, or null when it is not a math record. */
export function formatMath(r: TraceRecord): MathBlock | null {
  const d = obj(r.data);
  switch (r.type) {
    case 'NewRSMath': {
      const b = block('NewRSMath', 'NewRSNewReplicas');
      b.lines.push(...newRSLines(d));
      if (str(d, 'strategy') === 'RollingUpdate' && !str(d, 'error')) b.notes.push(t('math.specSumNote'));
      return b;
    }
    case 'FencepostMath':
      return fenceposts(d);
    case 'OldScaleDownMath':
      return oldScaleDown(d);
    case 'ScaleMath':
      return scale(d);
    case 'ReconcileNewMath':
      return reconcileNew(d);
    case 'ExpectationsCheck':
      return expectationsCheck(d);
    case 'ClaimDecision':
      return claim(d);
    case 'ManageDecision':
      return manage(d);
    case 'DeletionRanking':
      return deletionRanking(d);
    case 'RolloutStatusDecision':
      return rolloutStatus(d);
    case 'ScalingEventMath': {
      const b = block('ScalingEventMath', 'isScalingEvent');
      const checked = arr(d, 'checked');
      b.lines.push(`replicas ${num(d, 'replicas')}; active RSs: ${checked.length ? checked.map((c) => `${str(c, 'name')} desired ${c.valid === true ? str(c, 'desired') : '(none)'}`).join(', ') : 'none'}`);
      b.lines.push(str(d, 'trigger') ? t('math.scalingEvent', { what: str(d, 'trigger') }) : t('math.noScalingEvent'));
      b.context = !str(d, 'trigger');
      return b;
    }
  }
  return null;
}

/** The math blocks of a step's records, in record order. */
export function mathOf(records: readonly TraceRecord[]): MathBlock[] {
  const out: MathBlock[] = [];
  for (const r of records) {
    if (!MATH_TYPES.includes(r.type)) continue;
    const b = formatMath(r);
    if (!b) continue;
    // A claim of hundreds of orphans is one block, not hundreds.
    const prev = out.at(-1);
    if (b.type === 'ClaimDecision' && prev?.type === 'ClaimDecision' && prev.title === b.title && prev.notes[0] === b.notes[0]) {
      const n = (prev.claims ?? 1) + 1;
      prev.claims = n;
      if (n <= MAX_CLAIM_LINES) prev.lines.push(...b.lines);
      else prev.lines.splice(MAX_CLAIM_LINES, 1, t('math.claimMore', { n: n - MAX_CLAIM_LINES }));
      continue;
    }
    out.push(b);
  }
  return out;
}
