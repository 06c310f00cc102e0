import { describe, expect, it } from 'vitest';
import { DEFAULT_PANELS, isLibraryID, pageTheme, parseOptions, queryOptions } from './options';

describe('parseOptions', () => {
  it('reads every option from a query string', () => {
    const o = parseOptions(queryOptions('?scenario=rollback&panels=math,%20chart,bogus,math&step=7&autoplay=1&notes=off&note=2&readonly=false&speed=15&lang=zh-CN&theme=light'));
    expect(o).toEqual({ source: null, scenario: 'rollback', panels: ['math', 'chart'], step: 7, autoplay: true, notes: false, note: 2, readonly: false, speed: 15, lang: 'zh-CN', theme: 'light', error: null });
  });
  it('has read-only, paused defaults at step 0', () => {
    const o = parseOptions(queryOptions(''));
    expect(o).toMatchObject({ scenario: null, source: null, panels: [...DEFAULT_PANELS], step: 0, autoplay: false, notes: true, note: 0, readonly: true, speed: 5 });
  });
  it('ignores malformed numbers and clamps the speed', () => {
    expect(parseOptions(queryOptions('?step=-3&speed=9999'))).toMatchObject({ step: 0, speed: 240 });
    expect(parseOptions(queryOptions('?step=abc&autoplay=no'))).toMatchObject({ step: 0, autoplay: false });
  });
  it('takes inline YAML as the source', () => {
    expect(parseOptions((n) => (n === 'source' ? 'apiVersion: apps/v1\n' : null)).source).toBe('apiVersion: apps/v1\n');
    expect(parseOptions((n) => (n === 'source' ? '   ' : null)).source).toBeNull();
  });
});

describe('isLibraryID', () => {
  it('tells ids from URLs', () => {
    expect(isLibraryID('rolling-update-10-3-2')).toBe(true);
    expect(isLibraryID('/scenarios/x.yaml')).toBe(false);
    expect(isLibraryID('https://example.com/a.yaml')).toBe(false);
  });
});

it('theme: light or dark as asked, else the page around the player decides (its nearest painted background)', () => {
  expect(parseOptions((n) => (n === 'theme' ? ' Dark ' : null)).theme).toBe('dark');
  expect(parseOptions((n) => (n === 'theme' ? 'purple' : null)).theme).toBeNull();
  // A chain of elements, innermost first, and their backgrounds.
  const chain = (...bgs: string[]) => {
    const els = bgs.map((bg) => ({ bg, parentElement: null as unknown }));
    els.forEach((e, i) => (e.parentElement = els[i + 1] ?? null));
    return { el: { parentElement: els[0] } as unknown as Element, style: (e: Element) => ({ backgroundColor: (e as unknown as { bg: string }).bg }) };
  };
  let c = chain('rgba(0, 0, 0, 0)', 'rgb(13, 17, 23)', 'rgb(255, 255, 255)');
  expect(pageTheme(c.el, c.style)).toBe('dark'); // a dark body under a transparent wrapper
  c = chain('rgba(0, 0, 0, 0)', 'rgb(250, 250, 250)');
  expect(pageTheme(c.el, c.style)).toBe('light');
  c = chain('rgba(0, 0, 0, 0)', 'transparent');
  expect(pageTheme(c.el, c.style)).toBeNull(); // nothing painted: the system decides
  c = chain('rgb(30 30 30 / 90%)');
  expect(pageTheme(c.el, c.style)).toBe('dark');
  // Another colour space is read back as rgb (by a canvas in the page).
  c = chain('oklch(0.145 0 0)');
  expect(pageTheme(c.el, c.style, (css) => (css === 'oklch(0.145 0 0)' ? 'rgba(10, 10, 10, 1)' : ''))).toBe('dark');
});
