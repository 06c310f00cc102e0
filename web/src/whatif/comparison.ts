// The shapes of the bridge's fork/compare answer (docs/bridge-api.md
// "Compare", Go source of truth engine/compare) and the summary table built
// from them. Pure, so the numbers shown are tested without a browser.

import { t } from '../i18n';
import type { Sample } from '../types';

export interface Summary {
  label: string;
  forkStep: number;
  forkAtNs: number;
  endStep: number;
  endAtNs: number;
  complete: boolean;
  completeAtNs: number;
  timeToCompleteNs: number;
  desired: number;
  peakPods: number;
  peakSurge: number;
  peakReplicaSetTotal: number;
  minAvailable: number;
  podsCreated: number;
  podsDeleted: number;
  syncs: Record<string, number> | null;
  stopped?: string;
  final: { namespace: string; name: string; replicas: number; available: number; complete: boolean; images: string[] | null; replicaSets: { name: string; replicas: number }[] | null }[] | null;
}

export interface Divergence {
  step: number;
  atNs: number;
  a: string;
  b: string;
  recordA?: string;
  recordB?: string;
  words: string;
}

export interface EventLine {
  atNs: number;
  line: string;
}

export interface Comparison {
  a: Summary;
  b: Summary;
  divergence: Divergence | null;
  events: { onlyA: EventLine[] | null; onlyB: EventLine[] | null; common: number };
  samplesA: Sample[];
  samplesB: Sample[];
  /** The user actions made at the fork step, and whether B did them before its own. */
  actionsAt?: string[];
  keptAt?: boolean;
  /** The user actions made after the fork step (A runs them), and whether B runs them too. */
  laterActions?: number;
  keptLater?: boolean;
}

/** Seconds with up to three decimals: 12 → "12s", 1.5 → "1.5s". */
export function seconds(ns: number): string {
  return `${Number((ns / 1e9).toFixed(3))}s`;
}

/** One row of the summary table: a label and one cell per run; `best` is the index of the run with the best number when they differ and lower or higher is better. */
export interface Row {
  label: string;
  cells: string[];
  best?: number | undefined;
}

/** The index of the best value, or undefined when all are equal. */
function best(values: number[], lowerIsBetter: boolean): number | undefined {
  if (values.every((v) => v === values[0])) return undefined;
  let bi = 0;
  values.forEach((v, i) => {
    if (lowerIsBetter ? v < values[bi]! : v > values[bi]!) bi = i;
  });
  return bi;
}

/**
 * Whether every run ends with the same Deployments, replicas and images:
 * only then does a shorter time or fewer pods mean a better way to the
 * same end (a run that rolled nothing out is not the fastest rollout).
 */
export function sameEnd(runs: readonly Summary[]): boolean {
  const end = (s: Summary) => JSON.stringify((s.final ?? []).map((d) => [d.namespace, d.name, d.replicas, d.images]));
  return runs.every((s) => end(s) === end(runs[0]!));
}

/** The summary table's rows for runs A, B, C..., in the order shown; the best numbers are marked only when the runs end alike (sameEnd). */
export function summaryRows(runs: readonly Summary[]): Row[] {
  const ranked = sameEnd(runs);
  const rank = (values: number[], lowerIsBetter: boolean) => (ranked ? best(values, lowerIsBetter) : undefined);
  const all = runs.every((s) => s.complete);
  const rows: Row[] = [
    {
      label: t('whatif.sum.timeToComplete'),
      cells: runs.map((s) => (s.complete ? seconds(s.timeToCompleteNs) : t('whatif.sum.notComplete'))),
      best: all ? rank(runs.map((s) => s.timeToCompleteNs), true) : undefined,
    },
    { label: t('whatif.sum.peakPods'), cells: runs.map((s) => `${s.peakPods} (+${s.peakSurge})`) },
    { label: t('whatif.sum.peakRS'), cells: runs.map((s) => String(s.peakReplicaSetTotal)) },
    { label: t('whatif.sum.minAvailable'), cells: runs.map((s) => String(s.minAvailable)), best: rank(runs.map((s) => s.minAvailable), false) },
    { label: t('whatif.sum.created'), cells: runs.map((s) => String(s.podsCreated)), best: rank(runs.map((s) => s.podsCreated), true) },
    { label: t('whatif.sum.deleted'), cells: runs.map((s) => String(s.podsDeleted)) },
  ];
  const controllers = [...new Set(runs.flatMap((s) => Object.keys(s.syncs ?? {})))].sort();
  for (const ctl of controllers) {
    const v = runs.map((s) => s.syncs?.[ctl] ?? 0);
    rows.push({ label: t('whatif.sum.syncs', { controller: ctl }), cells: v.map(String), best: rank(v, true) });
  }
  rows.push({ label: t('whatif.sum.final'), cells: runs.map(finalText) });
  return rows;
}

/** "web 20/20 nginx:1.26" per Deployment. */
export function finalText(s: Summary): string {
  return (s.final ?? []).map((d) => `${d.name} ${d.available}/${d.replicas} ${(d.images ?? []).join(', ')}${d.complete ? '' : ` (${t('whatif.sum.rolling')})`}`).join('; ');
}

/** Run names: A for the run as recorded, then B, C, D for the alternatives. */
export const RUN_NAMES = ['A', 'B', 'C', 'D'] as const;

/**
 * Where the comparison chart's time axis ends: a fifth past the last run's
 * completion (its end when it never completed), at least a second past it.
 *
 *   completions at 15s and 6s → 18s
 */
export function chartEnd(runs: readonly Summary[]): number {
  const last = Math.max(0, ...runs.map((s) => (s.complete ? s.completeAtNs : s.endAtNs)));
  return last + Math.max(1e9, last / 5);
}
