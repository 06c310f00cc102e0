// The bridge's result envelope (see wasm/doc.go) and its validation.

/** One problem of a scenario file (see docs/bridge-api.md). */
export interface EngineErrorDetail {
  /** 1-based YAML document within the file. */
  doc: number;
  /** 1-based line and column. */
  line: number;
  column: number;
  /** Field path, e.g. "spec.replicas"; "" when none. */
  field: string;
  message: string;
}

/** Why a call failed, as reported by the Go side. */
export interface EngineError {
  /** Human-readable message. */
  message: string;
  /** 1-based input line the error refers to; 0 when none. */
  line: number;
  /** Input field path the error refers to; "" when none. */
  field: string;
  /** True when Go panicked (a bug), false for an ordinary error. */
  panic: boolean;
  /** Every problem of a scenario file, in file order; [] for other errors. */
  errors: EngineErrorDetail[];
}

/** The outcome of one bridge call. */
export type Result<T = unknown> = { ok: true; value: T } | { ok: false; error: EngineError };

/** A failed Result carrying only a message (for errors raised in JS). */
export function failure(message: string): Result<never> {
  return { ok: false, error: { message, line: 0, field: '', panic: false, errors: [] } };
}

/**
 * Parses the JSON string returned by `rolloutlab.call`. Anything that is not
 * a well-formed envelope becomes a failed Result, never an exception.
 *
 *   parseResult('{"ok":true,"value":1}')  → { ok: true, value: 1 }
 *   parseResult('nope')                   → { ok: false, error: { message: 'malformed engine result: …', … } }
 */
export function parseResult<T = unknown>(raw: unknown): Result<T> {
  if (typeof raw !== 'string') return failure(`malformed engine result: expected a string, got ${typeof raw}`);
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (e) {
    return failure(`malformed engine result: ${(e as Error).message}`);
  }
  if (!isObject(data) || typeof data.ok !== 'boolean') return failure('malformed engine result: missing "ok"');
  if (data.ok) return { ok: true, value: data.value as T };
  const err = data.error;
  if (!isObject(err) || typeof err.message !== 'string') return failure('malformed engine result: missing "error.message"');
  return {
    ok: false,
    error: {
      message: err.message,
      line: typeof err.line === 'number' ? err.line : 0,
      field: typeof err.field === 'string' ? err.field : '',
      panic: err.panic === true,
      errors: Array.isArray(err.errors) ? err.errors.filter(isObject).map(toDetail) : [],
    },
  };
}

function toDetail(d: Record<string, unknown>): EngineErrorDetail {
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    doc: num(d.doc),
    line: num(d.line),
    column: num(d.column),
    field: typeof d.field === 'string' ? d.field : '',
    message: typeof d.message === 'string' ? d.message : '',
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
