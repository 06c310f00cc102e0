// The engine's Worker: receives the compiled WebAssembly.Module from the page
// (engine.ts compiles it once per page), runs the Go program (wasm/) here and
// answers bridge calls in order. Go's runtime shim (wasm_exec.js from GOROOT)
// is bundled into this chunk by web/vite.config.ts.
import 'virtual:wasm-exec';
import type { FromWorker, ToWorker } from './engine';
import { afterIdle } from './idle';

/** A call's answer. */
type Answer = Extract<FromWorker, { type: 'result' | 'array' | 'split' }>;

interface Bridge {
  call(method: string, argsJSON: string): string;
  ready: boolean;
}
const scope = globalThis as unknown as {
  rolloutlab?: Bridge;
  __rolloutlabOnReady?: () => void;
  postMessage(m: FromWorker, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
};

let bridge: Bridge | null = null;
let failed: string | null = null;

async function start(module: WebAssembly.Module): Promise<void> {
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  await new Promise<void>((resolve, reject) => {
    scope.__rolloutlabOnReady = resolve;
    go.run(instance).then(
      () => reject(new Error('the engine exited')),
      (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
  delete scope.__rolloutlabOnReady;
  if (!scope.rolloutlab?.ready) throw new Error('the engine did not install its bridge');
  bridge = scope.rolloutlab;
}

function answer(method: string, args: string): string {
  if (!bridge) return JSON.stringify({ ok: false, error: { message: failed ?? 'the engine is not running' } });
  try {
    return bridge.call(method, args);
  } catch (e) {
    return JSON.stringify({ ok: false, error: { message: `engine call "${method}" failed: ${(e as Error).message}` } });
  }
}

const utf8 = new TextEncoder();

/** Samples per JSON chunk: the page parses one chunk per task (a few ms each). */
const SAMPLES_PER_CHUNK = 2000;

/** Array answers over this size (JSON characters) cross to the page in chunks. */
const CHUNK_ABOVE = 256 << 10;

/** Splits JSON texts into JSON arrays of at most SAMPLES_PER_CHUNK entries. */
function chunks(texts: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < texts.length; i += SAMPLES_PER_CHUNK) out.push(`[${texts.slice(i, i + SAMPLES_PER_CHUNK).join(',')}]`);
  return out;
}

/** A large array answer (e.g. "steps" after a long seek) in chunks the page parses one per task. */
function chunked(id: number, raw: string): Answer {
  if (raw.length <= CHUNK_ABOVE) return { type: 'result', id, result: raw };
  const env = JSON.parse(raw) as { ok?: boolean; value?: unknown };
  if (!env.ok || !Array.isArray(env.value)) return { type: 'result', id, result: raw };
  return { type: 'array', id, delta: false, keep: 0, tail: chunks(env.value.map((v) => JSON.stringify(v))) };
}

/**
 * A large answer whose value lists its steps (a move of many steps: a settle
 * of a 10,000-replica rollout lists 100,000, 13 MB of JSON, whose parse on
 * the page was a 110-150 ms task): the value without them, and the steps in
 * chunks the page parses one per task (engine.ts puts them back).
 */
function splitSteps(id: number, raw: string): Answer {
  if (raw.length <= CHUNK_ABOVE) return { type: 'result', id, result: raw };
  let env: { ok?: boolean; value?: { steps?: unknown } };
  try {
    env = JSON.parse(raw) as typeof env;
  } catch {
    return { type: 'result', id, result: raw };
  }
  const steps = env.value?.steps;
  if (!env.ok || !Array.isArray(steps) || steps.length <= SAMPLES_PER_CHUNK) return { type: 'result', id, result: raw };
  delete env.value!.steps;
  return { type: 'split', id, head: JSON.stringify(env), field: 'steps', tail: chunks(steps.map((v) => JSON.stringify(v))) };
}

/**
 * The answer to "samples": the bridge's "samplesSince" gives only the samples
 * after the prefix that is unchanged since its last answer (its tail parsed
 * and re-encoded here costs O(new steps), not O(run)), and the page keeps
 * that prefix of the list it holds (engine.ts).
 */
function samplesDelta(id: number, args: string): Answer {
  // args: {have}, how many samples the page holds (keep is never more).
  const raw = answer('samplesSince', args);
  let env: { ok?: boolean; value?: { keep?: unknown; tail?: unknown } };
  try {
    env = JSON.parse(raw) as typeof env;
  } catch {
    return { type: 'result', id, result: raw };
  }
  const keep = env.value?.keep;
  const tail = env.value?.tail;
  if (!env.ok || typeof keep !== 'number' || !Array.isArray(tail)) return { type: 'result', id, result: raw };
  return { type: 'array', id, delta: true, keep, tail: chunks(tail.map((v) => JSON.stringify(v))) };
}

/**
 * How long the Worker waits after its last answer before it lets the engine
 * collect garbage ("idle"). Go's collector runs on this thread: a cycle
 * started by a call's allocation runs inside that call (about 250 ms with the
 * heap of a 100k-step run), so the Worker offers it the pauses between calls
 * instead. Longer than the gaps between the calls of playing, seeking or
 * stepping (one per frame or per keypress), shorter than a reader's pause.
 */
const IDLE_MS = 400;
/**
 * While the engine reports more to gain from refining its rewind checkpoints
 * ("refine": one checkpoint taken in the largest gap between them, tens of ms
 * in a large run), the next unit of that work comes this long after the last,
 * leaving the Worker free for a call in between.
 */
const REFINE_AGAIN_MS = 20;
/** True until the idle work after a call has begun (its first unit collects garbage first). */
let idleFresh = true;
/**
 * The latest units of idle work, for scripts/bench-browser.mjs ("workerIdle",
 * answered here): a call that comes while one runs waits for it.
 */
const idleLog: { what: string; ms: number }[] = [];
const IDLE_LOG_MAX = 200;
function logged(what: string, args: string): string {
  const t0 = performance.now();
  const raw = answer(what, args);
  idleLog.push({ what, ms: performance.now() - t0 });
  if (idleLog.length > IDLE_LOG_MAX) idleLog.shift();
  return raw;
}
const idle = afterIdle(
  () => {
    // Garbage first, when the heap is past half its allowance ("idle"):
    // the collection is the longest idle work (280-330 ms with a 100k-step
    // run's heap) and cannot be interrupted, so a call that comes while it
    // runs waits for all of it. Done first, it is over about 700 ms after
    // the last answer, before the next click of a reader who pauses a
    // second; left until a chain of refine units (20-45 ms each, 20 ms
    // apart) has ended, it starts later by the length of the chain.
    if (idleFresh) {
      idleFresh = false;
      // A collection is a unit of its own: a call that comes during it
      // waits for it, not for a refine unit after it as well.
      if (collected(logged('idle', '{}'))) return true;
    }
    const more = refined(logged('refine', '{}'));
    // And once the refining is done (each unit allocates a checkpoint and
    // a replay; a collection after each would stretch the chain).
    if (!more) void logged('idle', '{}');
    return more;
  },
  IDLE_MS,
  REFINE_AGAIN_MS,
);

/** Whether a successful answer's value has `flag` set to true. */
function says(raw: string, flag: string): boolean {
  try {
    const env = JSON.parse(raw) as { ok?: boolean; value?: Record<string, unknown> };
    return env.ok === true && env.value?.[flag] === true;
  } catch {
    return false;
  }
}

/** Whether an "idle" answer says it collected garbage. */
const collected = (raw: string): boolean => says(raw, 'collected');

/** Whether a "refine" answer says it changed the checkpoints (more may follow). */
const refined = (raw: string): boolean => says(raw, 'refined');

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'call' && m.method === 'workerIdle') {
    // The idle work done since the last asking; the idle work goes on.
    scope.postMessage({ type: 'result', id: m.id, result: JSON.stringify({ ok: true, value: idleLog.splice(0) }), ms: 0 });
    return;
  }
  idle.busy();
  if (m.type === 'start') {
    start(m.module).then(
      () => scope.postMessage({ type: 'ready' }),
      (err: unknown) => {
        failed = err instanceof Error ? err.message : String(err);
        scope.postMessage({ type: 'failed', message: failed });
      },
    );
    return;
  }
  idleFresh = true;
  const t0 = performance.now();
  const msg: Answer =
    m.method === 'samples' ? samplesDelta(m.id, m.args)
    : m.method === 'steps' ? chunked(m.id, answer(m.method, m.args))
    : m.method === 'advance' ? splitSteps(m.id, answer(m.method, m.args)) // the one answer that lists its steps
    : { type: 'result', id: m.id, result: answer(m.method, m.args) };
  if (msg.type === 'result') {
    msg.ms = performance.now() - t0;
    scope.postMessage(msg);
  } else {
    // Chunks cross as UTF-8 bytes, transferred: a structured clone of
    // megabytes of strings is undone on the page in one task (a settle of a
    // 10,000-replica rollout's 13 MB of steps: about 100 ms), bytes moved
    // are not; the page decodes and parses them a chunk per task.
    const bytes = msg.tail.map((c) => (typeof c === 'string' ? utf8.encode(c) : c));
    msg.tail = bytes;
    msg.ms = performance.now() - t0;
    scope.postMessage(msg, bytes.map((b) => b.buffer));
  }
  idle.done();
};
