import { describe, expect, it } from 'vitest';
import { DRAFT_KEY, hasEdits, type KeyValue, loadDraft, saveDraft } from './persist';

function store(): KeyValue & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

describe('editor draft', () => {
  it('keeps edited text and forgets text equal to what is loaded', () => {
    const s = store();
    saveDraft(s, 'edited', 'loaded');
    expect(loadDraft(s)).toEqual({ text: 'edited', base: 'loaded' });
    saveDraft(s, 'loaded', 'loaded');
    expect(loadDraft(s)).toBeNull();
  });
  it('survives a broken entry and a failing store', () => {
    const s = store();
    s.data.set(DRAFT_KEY, '{not json');
    expect(loadDraft(s)).toBeNull();
    const full: KeyValue = { getItem: () => null, setItem: () => { throw new Error('quota'); }, removeItem: () => {} };
    expect(() => saveDraft(full, 'x', 'y')).not.toThrow();
  });
  it('asks before replacing only real edits', () => {
    expect(hasEdits('edited', 'loaded')).toBe(true);
    expect(hasEdits('loaded', 'loaded')).toBe(false);
    expect(hasEdits('  \n', 'loaded')).toBe(false);
    expect(hasEdits(null, 'loaded')).toBe(false);
  });
});
