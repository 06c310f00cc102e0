import { describe, expect, it } from 'vitest';
import type { Sample } from '../types';
import { comparisonSVG, seriesColors } from './chart';

const smp = (step: number, s: number, old: number, neu: number): Sample => ({
  step, atNs: s * 1e9,
  replicaSets: [{ name: 'web-old', desired: old, current: old, ready: old, available: old }, { name: 'web-new', desired: neu, current: neu, ready: neu, available: neu }],
  deployments: [{ name: 'web', replicas: 20, updated: neu, available: 20 }],
});

describe('comparison chart', () => {
  const a = [smp(0, 0, 20, 0), smp(1, 3, 15, 6), smp(2, 15, 0, 20)];
  const b = [smp(0, 0, 20, 0), smp(1, 3, 15, 20), smp(2, 6, 0, 20)];
  const svg = comparisonSVG([{ label: 'A: as recorded', samples: a }, { label: 'B: maxSurge=<100%>', samples: b }], 'title', 'virtual time (s)', 3e9);
  it('draws every series of both runs, B dashed, on one time axis', () => {
    expect(svg.match(/class="run-0"/g)).toHaveLength(3);
    expect(svg.match(/class="run-1"[^>]*stroke-dasharray="6 4"/g)).toHaveLength(3);
    // One x scale for both: 0s at 40 px, A's end (15s) at the right edge 708 px, so 3s is at
    // 40 + 668 × 3/15 = 173.6 and B's end (6s) at 307.2. y: 0 at 232, 20 (the top) at 12, 6 at 166.
    expect(svg).toContain('class="run-0" data-series="rs/web-new" d="M40.0,232.0H173.6V166.0H708.0V12.0"');
    expect(svg).toContain('class="run-1" data-series="rs/web-new" d="M40.0,232.0H173.6V12.0H307.2V12.0"');
  });
  it('marks the fork and escapes labels', () => {
    expect(svg).toContain('class="fork" x1="173.6"');
    expect(svg).toContain('B: maxSurge=&lt;100%&gt;');
  });
  it('gives a series the same colour in every run', () => {
    const c = seriesColors([a, b]);
    expect([...c.keys()]).toEqual(['rs/web-old', 'rs/web-new', 'available/web']);
    expect(c.get('available/web')?.color).toBe('#111827');
  });
});

describe('runs of different lengths', () => {
  // A settled at 3s (nothing more was due); B ran to 6s. A's state holds:
  // its lines run on to the right edge. A run stopped by a limit does not.
  const a = [smp(0, 0, 20, 0), smp(1, 3, 15, 6)];
  const b = [smp(0, 0, 20, 0), smp(1, 3, 15, 20), smp(2, 6, 0, 20)];
  it('draws a settled run to the edge', () => {
    const svg = comparisonSVG([{ label: 'A', samples: a, settled: true }, { label: 'B', samples: b, settled: true }], 't', 'x', 0);
    // x: 0s at 40, 6s at 708, so 3s at 374; y: 20 at 12, 6 at 166, 0 at 232.
    expect(svg).toContain('class="run-0" data-series="rs/web-new" d="M40.0,232.0H374.0V166.0H708.0"');
  });
  it('ends a line whose object is gone by the end of a settled run', () => {
    // A's old ReplicaSet is cleaned up after 3s: absent from A's last sample (at 5s).
    const gone = [...a, { ...smp(2, 5, 0, 20), replicaSets: [{ name: 'web-new', desired: 20, current: 20, ready: 20, available: 20 }] }];
    const svg = comparisonSVG([{ label: 'A', samples: gone, settled: true }, { label: 'B', samples: b, settled: true }], 't', 'x', 0);
    // web-old: 20 at 0s, 15 at 3s (374 px), then nothing; web-new runs on to the edge (708).
    expect(svg).toContain('class="run-0" data-series="rs/web-old" d="M40.0,12.0H374.0V67.0"');
    expect(svg).toContain('class="run-0" data-series="rs/web-new" d="M40.0,232.0H374.0V166.0H596.7V12.0H708.0"');
  });
  it('stops a run that did not settle at its last sample', () => {
    const svg = comparisonSVG([{ label: 'A', samples: a }, { label: 'B', samples: b, settled: true }], 't', 'x', 0);
    expect(svg).toContain('class="run-0" data-series="rs/web-new" d="M40.0,232.0H374.0V166.0"');
    expect(svg).not.toContain('class="run-0" data-series="rs/web-new" d="M40.0,232.0H374.0V166.0H708.0"');
  });
});

describe('cut time axis', () => {
  it('stops at untilNs and draws a line still running to the edge', () => {
    const a = [smp(0, 0, 20, 0), smp(1, 3, 15, 6), smp(2, 600, 0, 20)];
    const svg = comparisonSVG([{ label: 'A', samples: a }], 't', 'x', 0, 6e9);
    // 6s is the right edge (708); the point at 600s is left out, the line runs on to the edge.
    expect(svg).toContain('data-series="rs/web-new" d="M40.0,232.0H374.0V166.0H708.0"');
  });
});

describe('a late fork', () => {
  it('starts the time axis shortly before the fork, the lines entering at their values there', () => {
    const a = [smp(0, 0, 20, 0), smp(1, 300, 20, 0), smp(2, 303, 15, 6), smp(3, 320, 0, 20)];
    const svg = comparisonSVG([{ label: 'A', samples: a }], 't', 'x', 300e9);
    // The axis runs from 300 - 0.15 × 20 = 297s (40 px) to 320s (708 px): web-new enters at 0,
    // holds it at the fork (300s: 127.1), steps to 6 at 303s (40 + 668 × 6/23 = 214.3) and to 20 at 320s.
    expect(svg).toContain('data-series="rs/web-new" d="M40.0,232.0H127.1V232.0H214.3V166.0H708.0V12.0"');
    expect(svg).toContain('class="fork" x1="127.1"');
    // Quarter lines of the value axis: 5, 10, 15 of 20.
    expect(svg).toContain('>10</text>');
  });
});
