import { describe, expect, it } from 'vitest';
import { hasShareLink } from './detect';

describe('hasShareLink', () => {
  it('sees fragments of any version and short-link ids', () => {
    expect(hasShareLink({ hash: '#v1.abc', search: '' })).toBe(true);
    expect(hasShareLink({ hash: '#v12.x', search: '' })).toBe(true);
    expect(hasShareLink({ hash: '', search: `?s=${'0'.repeat(32)}` })).toBe(true);
    expect(hasShareLink({ hash: '#intro', search: '?s=abc' })).toBe(false);
    expect(hasShareLink({ hash: '', search: '' })).toBe(false);
  });
});
