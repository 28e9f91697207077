/** Time source of every time-dependent rule; tests pass a fixed or adjustable clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
