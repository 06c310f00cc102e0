import { describe, expect, it } from 'vitest';
import { describeProgress, expectedBytes, formatBytes, progressFraction } from './progress';

describe('expectedBytes', () => {
  it.each([
    ['plain Content-Length (doc example)', { 'content-length': '100' }, 0, 100],
    ['compressed uses build size (doc example)', { 'content-length': '40', 'content-encoding': 'br' }, 100, 100],
    ['nothing known (doc example)', {}, 0, null],
    ['identity encoding counts', { 'content-length': '100', 'content-encoding': 'identity' }, 5, 100],
    ['no length falls back to build size', {}, 77, 77],
    ['compressed without build size', { 'content-length': '40', 'content-encoding': 'gzip' }, 0, null],
    ['garbage length', { 'content-length': 'abc' }, 0, null],
    ['zero length', { 'content-length': '0' }, 9, 9],
  ])('%s', (_name, headers, buildBytes, want) => {
    expect(expectedBytes(new Headers(headers as Record<string, string>), buildBytes)).toBe(want);
  });
});

describe('progressFraction', () => {
  it('is received/total', () => expect(progressFraction({ received: 25, total: 100 })).toBe(0.25));
  it('is null when the total is unknown', () => expect(progressFraction({ received: 25, total: null })).toBeNull());
  it('is clamped to 1', () => expect(progressFraction({ received: 150, total: 100 })).toBe(1));
});

describe('formatBytes (doc examples)', () => {
  it.each([
    [999, '999 B'],
    [1500, '1.5 kB'],
    [9_800_000, '9.8 MB'],
  ])('%d → %s', (n, want) => expect(formatBytes(n)).toBe(want));
});

describe('describeProgress', () => {
  it('shows both sizes and a percentage', () =>
    expect(describeProgress({ received: 3_100_000, total: 9_800_000 })).toBe('3.1 MB / 9.8 MB (31%)'));
  it('shows only bytes received when the total is unknown', () =>
    expect(describeProgress({ received: 1500, total: null })).toBe('1.5 kB'));
});
