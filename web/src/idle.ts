/**
 * Calls `run` once `ms` milliseconds have passed without a call to `busy`
 * (the engine's Worker: refine rewind checkpoints and collect garbage between
 * calls, see IDLE_MS there). When `run` returns true (more work is left), it
 * runs again `againMs` later, until it returns false or a call comes.
 * `busy` cancels a pending run; `done` starts the wait again.
 */
export function afterIdle(run: () => boolean | void, ms: number, againMs = 0): { busy(): void; done(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (): void => {
    timer = undefined;
    if (run() === true && againMs > 0) timer = setTimeout(fire, againMs);
  };
  return {
    busy() {
      clearTimeout(timer);
      timer = undefined;
    },
    done() {
      clearTimeout(timer);
      timer = setTimeout(fire, ms);
    },
  };
}

/** Runs fn when the browser is idle (Safari has no requestIdleCallback). */
export function whenIdle(fn: () => void, timeoutMs = 2000): void {
  const ric = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
  if (ric) ric(fn, { timeout: timeoutMs });
  else setTimeout(fn, 200);
}
