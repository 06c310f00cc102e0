import { describe, expect, it } from 'vitest';
import { missingKeys, parseLocale, register, setLocale, t, translated } from './index';

describe('i18n', () => {
  it('fills placeholders and falls back to English, then to the key', () => {
    register('i18n-test', { en: { 'i18n-test.hello': 'Hello {name}', 'i18n-test.only': 'x' }, 'zh-CN': { 'i18n-test.hello': '你好 {name}', 'i18n-test.only': '仅' } });
    expect(t('i18n-test.hello', { name: 'web' })).toBe('Hello web');
    setLocale('zh-CN');
    expect(t('i18n-test.hello', { name: 'web' })).toBe('你好 web');
    expect(t('i18n-test.unknown')).toBe('i18n-test.unknown');
    setLocale('en');
  });
  it('rejects a key registered twice', () => {
    expect(() => register('dup', { en: { 'i18n-test.only': 'y' }, 'zh-CN': { 'i18n-test.only': 'y' } })).toThrow(/twice/);
  });
  it('parses language tags', () => {
    expect(parseLocale('zh-Hans-CN')).toBe('zh-CN');
    expect(parseLocale('en-GB')).toBe('en');
    expect(parseLocale('fr')).toBeNull();
  });
  it('finds keys one locale lacks', () => {
    register('half', { en: { 'half.a': 'a' }, 'zh-CN': {} });
    expect(missingKeys()).toContain('zh-CN:half.a');
  });
});

describe('translated', () => {
  const own: { title: string; text?: string } = { title: 'Expectations', text: 'Until the informer has seen them.' };
  it('takes the entry of the locale, else of its language, else the text as written', () => {
    expect(translated(own, { 'zh-CN': { title: '期望', text: '……' } }, 'zh-CN')).toEqual({ title: '期望', text: '……' });
    expect(translated(own, { zh: { title: '期望' } }, 'zh-CN')).toEqual({ title: '期望' });
    expect(translated(own, { de: { title: 'Erwartungen' } }, 'zh-CN')).toBe(own);
    expect(translated(own, { 'zh-CN': { title: '期望' } }, 'en')).toBe(own);
    expect(translated(own, { en: { title: 'Expected adds' } }, 'en')).toEqual({ title: 'Expected adds' });
    expect(translated(own, undefined, 'zh-CN')).toBe(own);
    // Another variant of the language before the text as written: zh-Hans before zh-TW (tag order).
    expect(translated(own, { 'zh-TW': { title: '期望（繁）' }, 'zh-Hans': { title: '期望（简）' }, de: { title: 'Erwartungen' } }, 'zh-CN')).toEqual({ title: '期望（简）' });
  });
});
