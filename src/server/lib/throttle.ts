import { sql } from 'kysely';
import type { Db } from '../db/connection.ts';
import { prepared } from '../db/prepared.ts';
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

/**
 * No rule counts over a longer window (the longest, a day, are in modules/auth/limits.ts), so a
 * row whose window started this long ago counts for nothing: `pruneThrottle` forgets it.
 */
export const LONGEST_THROTTLE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Hits whose delay is spelled out in SQL; later hits take the last one's delay. */
const delayUpTo = 32;

export interface ThrottleHit {
  allowed: boolean;
  /** The window's count including this hit (0 when refused). */
  hits: number;
}

/**
 * Why `rule` refuses `key` now: its window is used up, or it must wait (its delay after the last
 * hit has not passed). Read after a refused hit, only where the two mean different answers.
 */
export async function throttleRefusal(
  db: Db,
  rule: ThrottleRule,
  key: string,
  now: Date,
): Promise<'used-up' | 'waiting'> {
  const row = await db
    .selectFrom('auth_throttle')
    .select(['window_start', 'hits', 'not_before'])
    .where('scope', '=', rule.scope)
    .where('key', '=', key)
    .executeTakeFirst();
  const windowOpen = row && row.window_start > windowExpiredAt(rule, now);
  return windowOpen && row.not_before > iso(now) ? 'waiting' : 'used-up';
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
  const args: HitArguments = {
    key,
    at: iso(now),
    windowExpired: windowExpiredAt(rule, now),
  };
  notBeforeByHit(rule, now).forEach((notBefore, index) => {
    args[`notBefore${index + 1}`] = notBefore;
  });
  const row = (await hitStatement(rule)(db, args)).rows[0];
  return row ? { allowed: true, hits: Number(row.hits) } : { allowed: false, hits: 0 };
}

/** The instant at or before which a window of `rule` started is over. */
export const windowExpiredAt = (rule: ThrottleRule, now: Date): string =>
  iso(new Date(now.getTime() - rule.windowMs));

/**
 * The instant the hit after the n-th of a window waits for, n = 1, 2 … (element n − 1); the last
 * element holds for every later hit. One element for a rule without delays.
 */
export function notBeforeByHit(rule: ThrottleRule, now: Date): string[] {
  return Array.from({ length: rule.delayAfter ? delayUpTo + 1 : 1 }, (_, index) =>
    iso(new Date(now.getTime() + (rule.delayAfter ? rule.delayAfter(index + 1) : 0))),
  );
}

/** `key`, `at`, `windowExpired`, and `notBefore{n}`: the instant the n-th hit of a window waits for. */
type HitArguments = Record<string, string>;
type HitStatement = ReturnType<typeof prepared<HitArguments, { hits: number }>>;

/** Each rule's statement, compiled once: a deadline rush runs them five times per sign-in. */
const hitStatements = new WeakMap<ThrottleRule, HitStatement>();

function hitStatement(rule: ThrottleRule): HitStatement {
  let statement = hitStatements.get(rule);
  if (statement) return statement;
  if (rule.windowMs > LONGEST_THROTTLE_WINDOW_MS) {
    throw new Error(`throttle ${rule.scope}: a window longer than pruneThrottle keeps`);
  }
  statement = prepared<HitArguments, { hits: number }>((db, arg) => {
    const nextNotBefore = rule.delayAfter
      ? sql`case "auth_throttle"."hits" + 1 ${sql.join(
          Array.from(
            { length: delayUpTo },
            (_, n) => sql`when ${n + 1} then ${arg(`notBefore${n + 1}`)}`,
          ),
          sql` `,
        )} else ${arg(`notBefore${delayUpTo + 1}`)} end`
      : sql`${arg('at')}`;
    // Only a rule with delays looks at the instant: another rule never refuses on a clock that
    // reads a little earlier than the one that wrote the row (another instance, a test clock).
    const waited = rule.delayAfter ? sql`"auth_throttle"."not_before" <= ${arg('at')}` : sql`true`;
    const expired = sql`"auth_throttle"."window_start" <= ${arg('windowExpired')}`;
    const query = sql<{ hits: number }>`
      insert into "auth_throttle" ("scope", "key", "window_start", "hits", "not_before")
      values (${rule.scope}, ${arg('key')}, ${arg('at')}, 1, ${arg('notBefore1')})
      on conflict ("scope", "key") do update set
        "window_start" = case when ${expired} then ${arg('at')}
          else "auth_throttle"."window_start" end,
        "hits" = case when ${expired} then 1 else "auth_throttle"."hits" + 1 end,
        "not_before" = case when ${expired} then ${arg('notBefore1')} else ${nextNotBefore} end
      where ${expired} or ("auth_throttle"."hits" < ${rule.max} and ${waited})
      returning "hits"`;
    return { compile: () => query.compile(db) };
  });
  hitStatements.set(rule, statement);
  return statement;
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

/** How tries of a secret (a code, a password) are counted: per client, per subject, and grace. */
export interface TryRules {
  /** Tries of one client on one subject. */
  perClient: ThrottleRule;
  /** Tries evaluated for one subject from every client together: bounds guessing. */
  perSubject: ThrottleRule;
  /** Past the subject's ceiling, first tries of clients that have not been trying. */
  grace: ThrottleRule;
}

/**
 * Counts one try of a secret for `subject` from `client` before it is evaluated, and says whether
 * it may be: a client past its own allowance is refused; past the subject's ceiling, only a client
 * whose try this is first gets it evaluated, a few times per window, so that the owner's own device
 * gets in while a guesser is refused.
 */
export async function countTry(
  db: Db,
  rules: TryRules,
  subject: string,
  client: string,
  now: Date,
): Promise<boolean> {
  const byClient = await hitThrottle(db, rules.perClient, perClient(subject, client), now);
  if (!byClient.allowed) return false;
  if ((await hitThrottle(db, rules.perSubject, subject, now)).allowed) return true;
  const freshClient = byClient.hits === 1;
  return freshClient && (await hitThrottle(db, rules.grace, subject, now)).allowed;
}

/**
 * Forgets the counters that no longer count: their window is over for every rule and no delay is
 * still running. A hit on such a key starts a new window anyway (as after an expired window), so
 * only the table's size changes. Run by the background worker's housekeeping.
 */
export async function pruneThrottle(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('auth_throttle')
    .where('window_start', '<=', iso(new Date(now.getTime() - LONGEST_THROTTLE_WINDOW_MS)))
    .where('not_before', '<=', iso(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
