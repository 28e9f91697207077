import { systemClock, type Clock } from './clock.ts';

/**
 * End-to-end tests start the real server with PREMIOS_TEST_NOW (only when NODE_ENV=test): the
 * clock starts at that instant and runs on from there, so deadlines can be crossed without waiting.
 */
export function clockFromEnvironment(env: NodeJS.ProcessEnv = process.env): Clock {
  const start = env.PREMIOS_TEST_NOW;
  if (env.NODE_ENV !== 'test' || !start) return systemClock;
  const offset = new Date(start).getTime() - Date.now();
  if (Number.isNaN(offset)) throw new Error('PREMIOS_TEST_NOW must be an ISO instant');
  return { now: () => new Date(Date.now() + offset) };
}
