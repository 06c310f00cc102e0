import { describe, expect, it } from 'vitest';
import { DEFAULT_PANELS, isLibraryID, parseOptions, queryOptions } from './options';

describe('parseOptions', () => {
  it('reads every option from a query string', () => {
    const o = parseOptions(queryOptions('?scenario=rollback&panels=math,%20chart,bogus,math&step=7&autoplay=1&readonly=false&speed=15&lang=zh-CN'));
    expect(o).toEqual({ source: null, scenario: 'rollback', panels: ['math', 'chart'], step: 7, autoplay: true, readonly: false, speed: 15, lang: 'zh-CN', error: null });
  });
  it('has read-only, paused defaults at step 0', () => {
    const o = parseOptions(queryOptions(''));
    expect(o).toMatchObject({ scenario: null, source: null, panels: [...DEFAULT_PANELS], step: 0, autoplay: false, readonly: true, speed: 5 });
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
