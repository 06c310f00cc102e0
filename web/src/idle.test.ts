import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterIdle } from './idle';

describe('afterIdle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once the wait passes with no call, and not while calls keep coming', () => {
    const run = vi.fn();
    const idle = afterIdle(run, 400);
    idle.done();
    vi.advanceTimersByTime(399);
    idle.busy();
    vi.advanceTimersByTime(1000);
    expect(run).not.toHaveBeenCalled(); // a call came before the wait ended
    idle.done();
    vi.advanceTimersByTime(300);
    idle.busy();
    idle.done();
    vi.advanceTimersByTime(300);
    expect(run).not.toHaveBeenCalled(); // the wait starts again after each call
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(1); // once per pause, not periodically
  });

  it('runs again soon while run reports more work, until it is done or a call comes', () => {
    let left = 3;
    const run = vi.fn(() => --left > 0);
    const idle = afterIdle(run, 400, 20);
    idle.done();
    vi.advanceTimersByTime(400);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(20);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(20);
    expect(run).toHaveBeenCalledTimes(3); // returned false: done
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(3);
    // A call in between stops the repeats; the next pause starts them over.
    left = 5;
    idle.done();
    vi.advanceTimersByTime(400);
    expect(run).toHaveBeenCalledTimes(4);
    idle.busy();
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(4);
  });
});
