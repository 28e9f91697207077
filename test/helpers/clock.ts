import type { Clock } from '../../src/server/lib/clock.ts';

/** A clock that only moves when told to. */
export function manualClock(
  start: Date | string,
): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

/**
 * A clock that reads `start` now and runs on from there in real time: a server started at a
 * chosen instant can cross a deadline without the test waiting for it.
 */
export function clockStartingAt(start: string): Clock {
  const offset = new Date(start).getTime() - Date.now();
  if (Number.isNaN(offset)) throw new Error(`not an ISO instant: ${start}`);
  return { now: () => new Date(Date.now() + offset) };
}
