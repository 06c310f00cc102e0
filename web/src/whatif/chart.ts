// The comparison chart: both runs on one shared virtual-time axis, A solid
// and B dashed, one line per ReplicaSet size and per Deployment's available
// pods. Built as an SVG string (with its own colours, so the exported file
// looks the same outside the page) by a pure function; the room inserts it.

import { buildSeries, linear, niceMax, type Series, thin } from '../chart';
import type { Sample } from '../types';

export const WIDTH = 720;
export const HEIGHT = 260;
const PAD = { l: 40, r: 12, t: 12, b: 28 };
const COLORS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2'];
const AVAILABLE = '#111827';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One run on the chart. */
export interface ChartRun {
  /** Legend text, e.g. "A: as recorded". */
  label: string;
  samples: readonly Sample[];
  /** The run ended because nothing more was due: its lines hold their last value to the axis's end. */
  settled?: boolean;
}

/** A fork after this share of the time axis starts the axis near it, FORK_CONTEXT of what follows before it. */
const LATE_FORK = 0.5;
const FORK_CONTEXT = 0.15;

/** Line styles by run: A solid, B dashed, C dotted, D dash-dot. */
export const DASHES = ['', '6 4', '2 3', '8 3 2 3'] as const;

/**
 * The chart as a standalone SVG document; a series has the same colour in
 * every run. untilNs cuts the time axis (a run that settled long before its
 * last timer would otherwise squeeze the rollout into the first pixels); a
 * line still running at the cut is drawn to the edge, and so are the lines
 * of a settled run that ended before it.
 */
export function comparisonSVG(runs: readonly ChartRun[], title: string, axis: string, forkAtNs: number, untilNs?: number): string {
  const series = runs.map((r) => buildSeries(r.samples));
  const colors = colorsOf(series.flat());
  const color = (id: string) => colors.get(id)?.color ?? AVAILABLE;
  const tEnd = untilNs && untilNs > 0 ? untilNs : Math.max(1, ...runs.map((r) => r.samples.at(-1)?.atNs ?? 0));
  let vMax = 1;
  for (const ss of series) for (const s of ss) for (const p of s.points) if (p[0] <= tEnd) vMax = Math.max(vMax, p[1]);
  const yMax = niceMax(vMax);
  // A fork late in a long run (at 301 s of 320) would leave the two futures
  // the right sixth of the chart: the axis then starts a little before the
  // fork, the lines entering at the values they had there.
  const tStart = forkAtNs > LATE_FORK * tEnd ? Math.max(0, forkAtNs - FORK_CONTEXT * (tEnd - forkAtNs)) : 0;
  const x = linear(tStart, tEnd, PAD.l, WIDTH - PAD.r);
  const y = linear(0, yMax, HEIGHT - PAD.b, PAD.t);
  // A settled run's line goes on to the edge only while its object is in
  // the run's last sample (a ReplicaSet cleaned up, a Deployment deleted,
  // ends where it went).
  const path = (pts: [number, number, number][], settled: boolean, endStep: number) => {
    let d = '';
    let last: [number, number, number] | undefined;
    let before: [number, number, number] | undefined;
    for (const p of thin(pts, 600)) {
      if (p[0] > tEnd) break;
      if (p[0] < tStart) {
        before = p;
        continue;
      }
      if (!d && before) d = `M${x(tStart).toFixed(1)},${y(before[1]).toFixed(1)}`;
      const px = x(p[0]).toFixed(1);
      const py = y(p[1]).toFixed(1);
      d += d ? `H${px}V${py}` : `M${px},${py}`;
      last = p;
    }
    // Cut by the axis, or settled (its state holds): on to the edge.
    if (last && (last !== pts.at(-1) || (settled && last[2] === endStep && last[0] < tEnd))) d += `H${x(tEnd).toFixed(1)}`;
    return d;
  };
  const lines: string[] = [];
  series.forEach((ss, i) => {
    const dash = DASHES[i % DASHES.length] ? ` stroke-dasharray="${DASHES[i % DASHES.length]}"` : '';
    for (const s of ss) lines.push(`<path class="run-${i}" data-series="${esc(s.id)}" d="${path(s.points, runs[i]?.settled ?? false, runs[i]?.samples.at(-1)?.step ?? -1)}" fill="none" stroke="${color(s.id)}" stroke-width="2"${dash}/>`);
  });
  const fx = x(forkAtNs).toFixed(1);
  const ticks: string[] = [];
  const step = niceMax((tEnd - tStart) / 1e9 / 6);
  for (let s = Math.ceil(tStart / 1e9 / step) * step; s * 1e9 <= tEnd; s += step) {
    const px = x(s * 1e9).toFixed(1);
    ticks.push(`<text x="${px}" y="${HEIGHT - PAD.b + 14}" text-anchor="middle">${Number(s.toFixed(3))}</text>`);
  }
  // The value axis: a grid line and a label at every quarter.
  for (let i = 1; i < 4; i++) {
    const v = (yMax * i) / 4;
    const py = y(v).toFixed(1);
    ticks.push(`<line x1="${PAD.l}" x2="${WIDTH - PAD.r}" y1="${py}" y2="${py}" stroke="#e5e7eb"/><text x="4" y="${(Number(py) + 4).toFixed(1)}">${Number(v.toFixed(2))}</text>`);
  }
  const legend = runs.map((r, i) => {
    const ly = PAD.t + 6 + 16 * i;
    const dash = DASHES[i % DASHES.length] ? ` stroke-dasharray="${DASHES[i % DASHES.length]}"` : '';
    return `<line x1="${WIDTH - PAD.r - 200}" y1="${ly}" x2="${WIDTH - PAD.r - 176}" y2="${ly}" stroke="${AVAILABLE}" stroke-width="2"${dash}/><text x="${WIDTH - PAD.r - 172}" y="${ly + 4}">${esc(r.label)}</text>`;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${esc(title)}" font-family="sans-serif" font-size="11" fill="#374151">` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>` +
    `<path d="M${PAD.l},${PAD.t}V${HEIGHT - PAD.b}H${WIDTH - PAD.r}" fill="none" stroke="#9ca3af"/>` +
    `<line class="fork" x1="${fx}" x2="${fx}" y1="${PAD.t}" y2="${HEIGHT - PAD.b}" stroke="#ef4444" stroke-dasharray="2 3"/>` +
    `<text x="4" y="${PAD.t + 10}">${yMax}</text><text x="4" y="${HEIGHT - PAD.b}">0</text>` +
    ticks.join('') +
    `<text x="${WIDTH - PAD.r}" y="${HEIGHT - 2}" text-anchor="end">${esc(axis)}</text>` +
    lines.join('') +
    legend.join('') +
    `</svg>`
  );
}

/** Every series of both runs, in first-seen order, with its label and colour (the same in both runs). */
export function seriesColors(runs: readonly (readonly Sample[])[]): Map<string, { label: string; color: string }> {
  return colorsOf(runs.flatMap((r) => buildSeries(r)));
}

/** seriesColors of series already built. */
function colorsOf(series: readonly Series[]): Map<string, { label: string; color: string }> {
  const out = new Map<string, { label: string; color: string }>();
  let n = 0;
  for (const s of series) {
    if (out.has(s.id)) continue;
    out.set(s.id, { label: s.label, color: s.id.startsWith('available/') ? AVAILABLE : COLORS[n++ % COLORS.length]! });
  }
  return out;
}
