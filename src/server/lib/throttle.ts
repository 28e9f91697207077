import { sql } from 'kysely';
import type { Db } from '../db/connection.ts';
import { iso } from './time.ts';

/** A fixed-window counter: at most `max` hits per `windowMs`, optionally spaced out. */
export interface ThrottleRule {
  /** Names the counter family (e.g. "code-try-client"); keys are per scope. */
  scope: string;
  windowMs: number;
  max: number;
  /**
   * Wait imposed after the n-th hit of a window before the next one is allowed (progressive
   * delay); none when omitted. Must be constant from some n on (`delayUpTo` hits are spelled out).
   */
  delayAfter?: (hits: number) => number;
}

/** Hits whose delay is spelled out in SQL; later hits take the last one's delay. */
const delayUpTo = 32;

export interface ThrottleHit {
  allowed: boolean;
  /** The window's count including this hit (0 when refused). */
  hits: number;
}

/**
 * Counts one hit against `rule` for `key` and says whether it is allowed, in one statement: the
 * read, the comparison and the write cannot interleave with a parallel hit (a row lock on
 * PostgreSQL, the single writer on SQLite), so 40 parallel hits against a limit of 5 allow exactly
 * 5. A refused hit changes nothing. Runs on its own, outside any transaction, so that a hit counts
 * even when the work it guards fails afterwards.
 */
export async function hitThrottle(
  db: Db,
  rule: ThrottleRule,
  key: string,
  now: Date,
): Promise<ThrottleHit> {
  const at = iso(now);
  const windowExpired = iso(new Date(now.getTime() - rule.windowMs));
  const notBefore = (hits: number) =>
    iso(new Date(now.getTime() + (rule.delayAfter ? rule.delayAfter(hits) : 0)));
  const nextNotBefore = rule.delayAfter
    ? sql`case "auth_throttle"."hits" + 1 ${sql.join(
        Array.from({ length: delayUpTo }, (_, n) => sql`when ${n + 1} then ${notBefore(n + 1)}`),
        sql` `,
      )} else ${notBefore(delayUpTo + 1)} end`
    : sql`${at}`;
  // Only a rule with delays looks at the instant: another rule never refuses on a clock that
  // reads a little earlier than the one that wrote the row (another instance, a test clock).
  const waited = rule.delayAfter ? sql`"auth_throttle"."not_before" <= ${at}` : sql`true`;
  const result = await sql<{ hits: number }>`
    insert into "auth_throttle" ("scope", "key", "window_start", "hits", "not_before")
    values (${rule.scope}, ${key}, ${at}, 1, ${notBefore(1)})
    on conflict ("scope", "key") do update set
      "window_start" = case when "auth_throttle"."window_start" <= ${windowExpired}
        then ${at} else "auth_throttle"."window_start" end,
      "hits" = case when "auth_throttle"."window_start" <= ${windowExpired}
        then 1 else "auth_throttle"."hits" + 1 end,
      "not_before" = case when "auth_throttle"."window_start" <= ${windowExpired}
        then ${notBefore(1)} else ${nextNotBefore} end
    where "auth_throttle"."window_start" <= ${windowExpired}
      or ("auth_throttle"."hits" < ${rule.max} and ${waited})
    returning "hits"`.execute(db);
  const row = result.rows[0];
  return row ? { allowed: true, hits: Number(row.hits) } : { allowed: false, hits: 0 };
}

/** Forgets the counters of `key` in the given scopes (e.g. after a successful sign-in). */
export async function clearThrottle(db: Db, scopes: string[], key: string): Promise<void> {
  await db
    .deleteFrom('auth_throttle')
    .where('scope', 'in', scopes)
    .where('key', '=', key)
    .execute();
}

/** Forgets every counter whose key is `prefix` or starts with `prefix|` (an account's clients). */
export async function clearThrottlePrefix(db: Db, scopes: string[], prefix: string): Promise<void> {
  await db
    .deleteFrom('auth_throttle')
    .where('scope', 'in', scopes)
    .where((eb) =>
      eb.or([
        eb('key', '=', prefix),
        eb(sql`substr("key", 1, ${prefix.length + 1})`, '=', `${prefix}|`),
      ]),
    )
    .execute();
}

/** The key of a counter kept per subject and per client address. */
export const perClient = (subject: string, client: string): string => `${subject}|${client}`;
