import { describe, expect, it } from 'vitest';
import { failure, parseResult } from './result';

describe('parseResult', () => {
  it('parses a success (doc example)', () => {
    expect(parseResult('{"ok":true,"value":1}')).toEqual({ ok: true, value: 1 });
  });

  it('parses the version result shape', () => {
    expect(parseResult('{"ok":true,"value":{"engine":"0.1.0","upstream":"v1.36.3"}}')).toEqual({
      ok: true,
      value: { engine: '0.1.0', upstream: 'v1.36.3' },
    });
  });

  it('parses a positioned error', () => {
    const raw = '{"ok":false,"error":{"message":"bad","line":7,"field":"spec.replicas","panic":false}}';
    expect(parseResult(raw)).toEqual({
      ok: false,
      error: { message: 'bad', line: 7, field: 'spec.replicas', panic: false, errors: [] },
    });
  });

  it('parses the per-problem list of a scenario error', () => {
    const raw =
      '{"ok":false,"error":{"message":"2 problems","line":14,"field":"spec.replicas","panic":false,' +
      '"errors":[{"doc":2,"line":14,"column":3,"field":"spec.replicas","message":"must be an integer"},' +
      '{"doc":2,"line":20,"column":5,"message":"unknown field"},"junk"]}}';
    const r = parseResult(raw);
    expect(r.ok === false && r.error.errors).toEqual([
      { doc: 2, line: 14, column: 3, field: 'spec.replicas', message: 'must be an integer' },
      { doc: 2, line: 20, column: 5, field: '', message: 'unknown field' },
    ]);
  });

  it('keeps the panic flag', () => {
    const r = parseResult('{"ok":false,"error":{"message":"internal error","line":0,"field":"","panic":true}}');
    expect(r.ok === false && r.error.panic).toBe(true);
  });

  it('defaults missing error fields', () => {
    expect(parseResult('{"ok":false,"error":{"message":"m"}}')).toEqual(failure('m'));
  });

  it.each([
    ['not JSON (doc example)', 'nope'],
    ['not an object', '[1]'],
    ['no ok', '{"value":1}'],
    ['error without message', '{"ok":false,"error":{}}'],
    ['not a string', 42],
  ])('turns %s into a failure', (_name, raw) => {
    const r = parseResult(raw);
    expect(r.ok).toBe(false);
    expect(r.ok === false && r.error.message).toMatch(/^malformed engine result: /);
  });
});
