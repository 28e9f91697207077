import { describe, expect, it } from 'vitest';
import { hitThrottle } from '../../src/server/lib/throttle.ts';
import { useTestApp } from '../helpers/api-fixture.ts';

const HOUR = 60 * 60_000;

describe('expired sign-in counters are pruned by the background worker', () => {
  // The clock carries on from one test to the next, as the worker's hourly round does.
  const app = useTestApp({ freshEachTest: false });

  const ago = (ms: number) => new Date(app.t.clock.now().getTime() - ms).toISOString();
  const row = (key: string, windowStart: string, notBefore: string) =>
    app.db
      .insertInto('auth_throttle')
      .values({
        scope: 'code-try-client',
        key,
        window_start: windowStart,
        hits: 5,
        not_before: notBefore,
      })
      .execute();
  const keys = async () =>
    (await app.db.selectFrom('auth_throttle').select('key').orderBy('key').execute()).map(
      (r) => r.key,
    );

  it('deletes the rows whose window is over for every rule and whose delay has passed, hourly', async () => {
    await row('a-expired', ago(25 * HOUR), ago(25 * HOUR));
    await row('b-this-hour', ago(HOUR), ago(HOUR));
    await row('c-day-window', ago(23 * HOUR), ago(23 * HOUR));
    await row('d-still-waiting', ago(25 * HOUR), ago(-HOUR));
    await app.t.deliverMail();
    expect(await keys()).toEqual(['b-this-hour', 'c-day-window', 'd-still-waiting']);

    // At most once an hour: a row expiring meanwhile waits for the next round.
    await row('e-expired-later', ago(25 * HOUR), ago(25 * HOUR));
    app.t.clock.advance(59 * 60_000);
    await app.t.deliverMail();
    expect(await keys()).toContain('e-expired-later');
    app.t.clock.advance(2 * 60_000 + 2 * HOUR);
    await app.t.deliverMail();
    // Three hours on, the day-long window is over too and the waiting row's delay has passed.
    expect(await keys()).toEqual(['b-this-hour']);
  });

  it('lets a pruned key start a new window, as an expired one would', async () => {
    const rule = { scope: 'code-try-client', windowMs: HOUR, max: 5 };
    await row('f-pruned', ago(25 * HOUR), ago(25 * HOUR));
    app.t.clock.advance(2 * HOUR);
    await app.t.deliverMail();
    expect(await keys()).not.toContain('f-pruned');
    expect(await hitThrottle(app.db, rule, 'f-pruned', app.t.clock.now())).toEqual({
      allowed: true,
      hits: 1,
    });
  });
});
