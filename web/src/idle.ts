/**
 * Calls `run` once `ms` milliseconds have passed without a call to `busy`
 * (the engine's Worker: collect garbage between calls, see IDLE_MS there).
 * `busy` cancels a pending run; `done` starts the wait again.
 */
export function afterIdle(run: () => void, ms: number): { busy(): void; done(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    busy() {
      clearTimeout(timer);
      timer = undefined;
    },
    done() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        run();
      }, ms);
    },
  };
}
